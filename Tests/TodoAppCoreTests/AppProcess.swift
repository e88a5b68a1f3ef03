import Foundation
import Subprocess
import SystemPackage

/// A run of a built TodoApp executable (`TodoAppDog` or `TodoAppCat`, built next to this test
/// bundle by `swift build --build-tests`), with its own `TODOAPP_HOME`. Runs are awaited through
/// swift-subprocess, so a test waiting for the app holds no thread of the cooperative pool.
struct AppProcess {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What a finished run printed, and how it ended.
    struct Result {
        var status: TerminationStatus
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

    /// More than any frame sequence a test prints; a run printing more fails instead of growing.
    private static let outputLimit = 64 << 20

    let executable: URL
    let home: URL
    var environment: [String: String?] = [:]

    init(_ name: String, home: URL) throws {
        let testBinary = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        executable = testBinary.deletingLastPathComponent().appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Failure(description: "\(name) is not built at \(executable.path); run `swift build` first")
        }
        self.home = home
    }

    private var processEnvironment: Environment {
        var changes: [Environment.Key: String?] = ["TODOAPP_HOME": home.path, "XDG_CONFIG_HOME": nil]
        for (key, value) in environment { changes[Environment.Key(stringLiteral: key)] = value }
        return .inherit.updating(changes)
    }

    /// Runs `commands` with `--script -` and `arguments`; returns when the app has exited.
    func run(_ commands: [String], arguments: [String] = []) async throws -> Result {
        let result = try await Subprocess.run(
            .path(FilePath(executable.path)),
            arguments: Arguments(["--script", "-", "--size", "80x24"] + arguments),
            environment: processEnvironment, input: .string(commands.joined(separator: "\n") + "\n"),
            output: .string(limit: Self.outputLimit), error: .string(limit: Self.outputLimit))
        return Result(
            status: result.terminationStatus, output: result.standardOutput,
            errors: result.standardError)
    }

    /// Runs with raw `arguments` only (no script), for argument errors.
    func run(arguments: [String]) async throws -> Result {
        let result = try await Subprocess.run(
            .path(FilePath(executable.path)), arguments: Arguments(arguments),
            environment: processEnvironment,
            output: .string(limit: Self.outputLimit), error: .string(limit: Self.outputLimit))
        return Result(
            status: result.terminationStatus, output: result.standardOutput,
            errors: result.standardError)
    }

    /// Runs the app as someone typing `typed` at its prompt, reads its output until `printed`
    /// appears, and kills it with SIGKILL there.
    ///
    /// - Returns: What it printed, and how it ended.
    func kill(afterTyping typed: String, once printed: String) async throws -> Result {
        let result = try await Subprocess.run(
            .path(FilePath(executable.path)), arguments: ["--size", "80x24"], environment: processEnvironment,
            input: .inputWriter, output: .sequence, error: .discarded
        ) { execution in
            _ = try await execution.standardInputWriter.write(typed)
            var seen = ""
            for try await chunk in execution.standardOutput {
                seen += chunk.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
                if seen.contains(printed) { break }
            }
            try execution.send(signal: .kill)
            return seen
        }
        return Result(status: result.terminationStatus, output: result.closureResult, errors: "")
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
