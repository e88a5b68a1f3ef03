import Foundation
import HeadlessUITesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `headlessui-demo`, built next to this test bundle, for the tests that run it in a terminal.
enum HeadlessUIDemo {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The demo executable.
    static func path() throws -> String {
        let testBinary = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let demo = testBinary.deletingLastPathComponent().appendingPathComponent("headlessui-demo").path
        guard FileManager.default.isExecutableFile(atPath: demo) else {
            throw Failure(description: "headlessui-demo is not built at \(demo); run `swift build` first")
        }
        return demo
    }

    /// A 64×48 JPEG for `--image`: the demo's third tab shows it.
    static let picture = URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "Images/sunset-64x48.jpg").path

    /// Whether the process `pid` is stopped: its state in `/proc/PID/stat` is `T`, or `t` when a
    /// tracer holds it (`ribcage test --cache` runs the suite under `strace`, and a traced
    /// process stopped by job control shows `t`).
    static func isStopped(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")"),
            let state = stat[end...].dropFirst().trimmingCharacters(in: .whitespaces).first
        else { return false }
        return state == "T" || state == "t"
    }

    /// Whether `screen` shows the whole first frame of the list tab: its last row, the tab bar,
    /// is drawn.
    static func listIsDrawn(_ screen: String) -> Bool {
        screen.contains("Groceries") && screen.contains("[1 Groceries]") && screen.contains("HeadlessUI demo")
    }

    /// Whether `screen` shows the whole frame of the picture tab `columns` wide: the picture,
    /// its caption, the rule and the tab bar below it, with the picture's tab selected (the last
    /// cells that switching tabs writes).
    static func pictureIsDrawn(_ screen: String, columns: Int = 80, halfBlocks: Bool = true) -> Bool {
        (!halfBlocks || screen.contains("▀")) && screen.contains("sunset-64x48.jpg")
            && screen.contains(String(repeating: "─", count: columns)) && screen.contains("[3 Picture]")
    }
}

extension Tmux {
    /// Starts the demo with `arguments`, writing its pid to ``pidFile``, from a shell that
    /// reports how it ended (``waitForExit(sourceLocation:)``).
    func startDemo(
        arguments: [String] = [], environment: [String: String] = [:], columns: Int = 80, rows: Int = 24
    ) async throws {
        try await startReportingExit(
            [try HeadlessUIDemo.path(), "--pid-file", pidFile] + arguments, environment: environment,
            columns: columns, rows: rows)
    }

    /// The running demo's pid, from its pid file.
    func demoPID() throws -> Int32 {
        let text = try String(contentsOfFile: pidFile, encoding: .utf8)
        guard let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "no pid in \(pidFile)")
        }
        return pid
    }

    /// Starts the demo from an interactive shell with job control, as a user has (`$ ` is its
    /// prompt): in the foreground, or as a background job (`&`).
    func startDemoInAnInteractiveShell(inTheBackground: Bool = false) async throws {
        try await start(command: "sh -i", environment: ["PS1": "$ "])
        let commandLine = "\(Tmux.quoted(try HeadlessUIDemo.path())) --pid-file \(pidFile)"
        try await send(literal: inTheBackground ? commandLine + " &" : commandLine)
        try await send("Enter")
    }

    /// Checks, with `stty -a` typed at the shell, that the terminal is in cooked mode: lines
    /// edited by the terminal (`icanon`) and echoed (`echo`).
    func expectCookedMode(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await send(literal: "stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' ' '; echo")
        try await send("Enter")
        try await waitFor({ $0.contains("icanon echo") }, sourceLocation: sourceLocation)
    }
}
