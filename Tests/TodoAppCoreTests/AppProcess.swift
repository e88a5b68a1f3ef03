import Foundation

/// A run of a built TodoApp executable (`TodoAppDog` or `TodoAppCat`, built next to this test
/// bundle by `swift build --build-tests`), with its own `TODOAPP_HOME`.
struct AppProcess {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What a finished run printed, and how it ended.
    struct Result {
        var status: Int32
        var output: String
        var errors: String

        /// The text printed after `> command` (the frame and the message), for the `index`-th
        /// occurrence of that command; `nil` when it was not run.
        func after(_ command: String, occurrence index: Int = 0) -> String? {
            let parts = output.components(separatedBy: "> \(command)\n")
            guard parts.count > index + 1 else { return nil }
            return parts[index + 1].components(separatedBy: "\n> ").first
        }
    }

    let executable: URL
    let home: URL
    var environment: [String: String] = [:]

    init(_ name: String, home: URL) throws {
        let testBinary = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        executable = testBinary.deletingLastPathComponent().appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Failure(description: "\(name) is not built at \(executable.path); run `swift build` first")
        }
        self.home = home
    }

    private func makeProcess(_ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TODOAPP_HOME"] = home.path
        environment.removeValue(forKey: "XDG_CONFIG_HOME")
        for (key, value) in self.environment { environment[key] = value }
        process.environment = environment
        return process
    }

    /// Runs `commands` with `--script -` and `arguments`; waits for the end.
    func run(_ commands: [String], arguments: [String] = []) throws -> Result {
        let process = makeProcess(["--script", "-", "--size", "80x24"] + arguments)
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data((commands.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        return Self.collect(process, output: output, errors: errors)
    }

    /// Runs with raw `arguments` only (no script), for argument errors.
    func run(arguments: [String]) throws -> Result {
        let process = makeProcess(arguments)
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return Self.collect(process, output: output, errors: errors)
    }

    /// Reads both pipes to the end, then waits for the exit.
    private static func collect(_ process: Process, output: Pipe, errors: Pipe) -> Result {
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self),
            errors: String(decoding: complaints, as: UTF8.self))
    }

    /// Starts the app reading commands from a pipe, as someone typing; for killing it midway.
    func start() throws -> (process: Process, input: FileHandle, output: FileHandle) {
        let process = makeProcess(["--size", "80x24"])
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, input.fileHandleForWriting, output.fileHandleForReading)
    }
}

/// A temporary folder removed at the end of the test.
final class TemporaryHome {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "TodoAppTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
