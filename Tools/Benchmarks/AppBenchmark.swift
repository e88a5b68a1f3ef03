import ArgumentParser
import Data
import Domain
import Foundation
import LocalProvider

/// `bench app`: the built TodoApp-Dog (release), as a user runs it: the time from starting the
/// process to its first frame, and the time per command with 10,000 todos. Peers, measured in
/// the same run: the same executable printing `--help` (a start with no UI), and the same
/// commands on a 10-todo list.
struct AppBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "TodoApp-Dog: cold start to the first frame, and latency per command with 10,000 todos.")

    @Option(help: "Repetitions; the median is reported.")
    var repetitions = 5

    @Option(help: "Commands per latency run.")
    var commands = 100

    @Option(help: "Todos in the large list.")
    var todos = 10_000

    func run() async throws {
        #if DEBUG
            print("warning: this is a debug build; run `swift run -c release bench app` for real figures.")
        #endif
        let app = try AppUnderTest()
        print("TodoApp benchmark: \(app.executable.path), median of \(repetitions), 80x24, --offline\n")

        let bareStart = try Measurement.median(repetitions: repetitions) {
            try app.runToEnd(arguments: ["--help"])
        }
        let firstFrame = try Measurement.median(repetitions: repetitions) { try app.timeToFirstFrame() }

        let script = Self.script(count: commands)
        var perCommand: [Int: Double] = [:]
        for size in [10, todos] {
            try app.resetData(todoCount: size)
            let quitOnly = try Measurement.median(repetitions: repetitions) { try app.runScript(["quit"]) }
            // The script toggles and renames, so the list keeps its size from run to run.
            let withCommands = try Measurement.median(repetitions: repetitions) {
                try app.runScript(script + ["quit"])
            }
            perCommand[size] = max(0, withCommands - quitOnly) / Double(script.count)
        }
        let firstFrameLarge = try Measurement.median(repetitions: repetitions) { try app.timeToFirstFrame() }
        let small = perCommand[10] ?? .nan
        let large = perCommand[todos] ?? .nan

        func row(_ name: String, _ value: Double, _ peer: Double, goal: Double) {
            print(
                name.padding(toLength: 44, withPad: " ", startingAt: 0)
                    + Measurement.milliseconds(value).leftPadded(12)
                    + Measurement.ratio(value / peer).leftPadded(10)
                    + (value < goal ? "yes" : "no").leftPadded(8))
        }
        print(
            "measurement".padding(toLength: 44, withPad: " ", startingAt: 0) + "time".leftPadded(12)
                + "vs peer".leftPadded(10) + "goal".leftPadded(8))
        print(
            "peer: process start, `--help`".padding(toLength: 44, withPad: " ", startingAt: 0)
                + Measurement.milliseconds(bareStart).leftPadded(12))
        row("cold start to the first frame (< 100 ms)", firstFrame, bareStart, goal: 0.1)
        row("… with \(Measurement.grouped(Double(todos))) todos saved", firstFrameLarge, bareStart, goal: 0.1)
        print(
            "peer: per command, 10 todos".padding(toLength: 44, withPad: " ", startingAt: 0)
                + Measurement.milliseconds(small).leftPadded(12))
        row("per command, \(Measurement.grouped(Double(todos))) todos (< 10 ms)", large, small, goal: 0.01)
        print(
            "\nA command's time includes its save (one fsynced journal line; the list written whole every 256 changes), layout, drawing and printing the frame."
        )
    }

    /// A mix of what a user does: toggle, rename, filter, scroll, switch tabs, open and leave
    /// the add screen.
    static func script(count: Int) -> [String] {
        let cycle = [
            "done 1", "edit 2 renamed", "filter active", "filter all", "scroll down", "scroll up", "done 1",
            "tab profile", "tab todo", "new", "back",
        ]
        return (0..<count).map { cycle[$0 % cycle.count] }
    }
}

/// The release TodoAppDog next to the bench binary, with a private data folder.
private struct AppUnderTest {
    let executable: URL
    let home: URL

    init() throws {
        let bench = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        executable = bench.deletingLastPathComponent().appendingPathComponent("TodoAppDog")
        if !FileManager.default.isExecutableFile(atPath: executable.path) {
            let configuration = bench.deletingLastPathComponent().lastPathComponent
            print("Building TodoAppDog (\(configuration))…")
            let build = Process()
            build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            build.arguments = ["swift", "build", "-c", configuration, "--product", "TodoAppDog"]
            try build.run()
            build.waitUntilExit()
            guard build.terminationStatus == 0 else { throw ValidationError("could not build TodoAppDog") }
        }
        home = FileManager.default.temporaryDirectory.appendingPathComponent("bench-app-\(UUID().uuidString)")
    }

    private var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["TODOAPP_HOME"] = nil
        return environment
    }

    /// Replaces the flavor's todos with `todoCount` of them.
    func resetData(todoCount: Int) throws {
        let folder = home.appendingPathComponent("data/TodoApp-Dog")
        let todos = (0..<todoCount).map { Todo(title: "Todo number \($0)", isDone: $0 % 3 == 0) }
        let repository = StoredTodoRepository(
            store: try PlistFileStore(root: folder, format: .binary),
            journal: folder.appendingPathComponent("todos.journal"))
        try repository.compact(todos)
    }

    private func process(_ arguments: [String]) -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        return (process, input, output)
    }

    func runToEnd(arguments: [String]) throws {
        let (process, _, output) = process(arguments)
        try process.run()
        _ = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
    }

    func runScript(_ commands: [String]) throws {
        let (process, input, output) = process(["--script", "-", "--size", "80x24", "--offline"])
        try process.run()
        input.fileHandleForWriting.write(Data((commands.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        _ = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ValidationError("TodoAppDog exited with \(process.terminationStatus)")
        }
    }

    /// Starts the app and reads until its first frame is complete (the line under it).
    func timeToFirstFrame() throws {
        let (process, input, output) = process(["--script", "-", "--size", "80x24", "--offline"])
        try process.run()
        var printed = Data()
        let marker = Data("Type `help`".utf8)
        while printed.range(of: marker) == nil {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed.append(chunk)
        }
        input.fileHandleForWriting.write(Data("quit\n".utf8))
        try input.fileHandleForWriting.close()
        _ = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
    }
}
