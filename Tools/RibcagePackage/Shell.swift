import BlockingWork
import Foundation
import Subprocess

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// What a finished child process left behind.
package struct ProcessResult: Sendable {
    /// The exit status, or the signal number when ``wasSignalled`` is true.
    package var status: Int32
    /// True when the process was killed by a signal instead of exiting.
    package var wasSignalled: Bool
    /// Everything the process wrote to standard output, unless it went elsewhere.
    package var standardOutput: Data
    /// Everything the process wrote to standard error, unless it went elsewhere.
    package var standardError: Data

    /// True when the process exited normally with status 0.
    package var succeeded: Bool { status == 0 && !wasSignalled }

    /// Standard output decoded as UTF-8.
    package var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error decoded as UTF-8.
    package var errorText: String { String(decoding: standardError, as: UTF8.self) }

    /// A short description of how the process ended, for error messages.
    package var terminationDescription: String {
        wasSignalled ? "was killed by signal \(status)" : "exited with status \(status)"
    }
}

/// Runs child processes for the tool (`swift`, `git`, `dot`) and awaits them with
/// swift-subprocess, which watches for the exit on a thread of its own: a waiting child never
/// holds one of the cooperative pool's threads.
package enum Shell {
    /// Where a child's output goes.
    package enum Output: Sendable {
        /// Collected into ``ProcessResult/standardOutput`` and ``ProcessResult/standardError``.
        case capture
        /// Both streams written, interleaved as the child wrote them, to this file (replaced).
        case file(URL)
        /// Both streams written to this file and, as they come, to this process's standard error:
        /// a child's own output, shown as it runs when the user asked for it (`--verbose`). The
        /// one way a library's work reaches the terminal without the command handing it on.
        case fileAndStandardError(URL)
    }

    /// Runs `command` (looked up on `PATH`, or a path when it holds a `/`) with `arguments`, and
    /// returns when it has exited.
    ///
    /// Captured output goes through temporary files rather than pipes, so a chatty child never
    /// meets a size limit and never waits on a full pipe.
    ///
    /// - Parameters:
    ///   - environment: Variables to set or, with `nil` values, remove, on top of this
    ///     process's environment.
    ///   - whileRunning: Given the child's process ID once it has started, while the run waits
    ///     for it to end (a child that ends first is still waited for).
    /// - Throws: ``RibcageError/commandNotFound(_:hint:)`` when the command cannot be started,
    ///   or the file system's error when its captured output cannot be read back (empty output
    ///   would pass for what the command said).
    package static func run(
        _ command: String,
        _ arguments: [String],
        in directory: URL? = nil,
        output: Output = .capture,
        environment: [String: String?] = [:],
        whileRunning: (@Sendable (pid_t) async -> Void)? = nil
    ) async throws -> ProcessResult {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("ribcage-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outFile = scratch.appendingPathComponent("stdout")
        let errFile = scratch.appendingPathComponent("stderr")

        let executable: Executable = command.contains("/") ? .path(FilePath(command)) : .name(command)
        let workingDirectory = directory.map { FilePath($0.path) }
        var keys: [Environment.Key: String?] = [:]
        for (name, value) in environment { keys[Environment.Key(stringLiteral: name)] = value }
        let childEnvironment = Environment.inherit.updating(keys)

        let status: TerminationStatus
        do {
            switch output {
            case .capture:
                let out = try open(outFile)
                let err = try open(errFile)
                status = try await Subprocess.run(
                    executable, arguments: Arguments(arguments), environment: childEnvironment,
                    workingDirectory: workingDirectory, input: .none,
                    output: .fileDescriptor(out, closeAfterSpawningProcess: true),
                    error: .fileDescriptor(err, closeAfterSpawningProcess: true)
                ) { execution in
                    await whileRunning?(execution.processIdentifier.value)
                }.terminationStatus
            case .file(let log):
                let out = try open(log)
                status = try await Subprocess.run(
                    executable, arguments: Arguments(arguments), environment: childEnvironment,
                    workingDirectory: workingDirectory, input: .none,
                    output: .fileDescriptor(out, closeAfterSpawningProcess: true),
                    error: .combinedWithOutput
                ) { execution in
                    await whileRunning?(execution.processIdentifier.value)
                }.terminationStatus
            case .fileAndStandardError(let log):
                let file = try open(log)
                defer { try? file.close() }
                let configuration = Configuration(
                    executable: executable, arguments: Arguments(arguments), environment: childEnvironment,
                    workingDirectory: workingDirectory)
                status = try await Subprocess.run(
                    configuration, input: .none, output: .sequence, error: .combinedWithOutput
                ) { execution in
                    async let watched: Void? = whileRunning?(execution.processIdentifier.value)
                    for try await buffer in execution.standardOutput {
                        try buffer.withUnsafeBytes { bytes in
                            _ = try file.writeAll(bytes)
                            _ = try FileDescriptor.standardError.writeAll(bytes)
                        }
                    }
                    _ = await watched
                }.terminationStatus
            }
        } catch let error as SubprocessError where error.code == .executableNotFound {
            throw RibcageError.commandNotFound(command, hint: nil)
        } catch let error as SubprocessError where error.code == .failedToChangeWorkingDirectory {
            throw RibcageError.noPackage(path: directory?.path ?? "")
        }

        let (code, signalled): (Int32, Bool) =
            switch status {
            case .exited(let code): (code, false)
            case .signaled(let signal): (signal, true)
            }
        var captured = (standardOutput: Data(), standardError: Data())
        if case .capture = output {
            // A child's output can run to megabytes (`swift package describe` of a large
            // package): read it on a thread of its own, not on the cooperative pool.
            captured = try await DedicatedThread.run(named: "ribcage-child-output") {
                (try Data(contentsOf: outFile), try Data(contentsOf: errFile))
            }
        }
        return ProcessResult(
            status: code, wasSignalled: signalled, standardOutput: captured.standardOutput,
            standardError: captured.standardError)
    }

    /// ``run(_:_:in:output:environment:)`` with its output captured, given up on after
    /// `timeout`: the child is killed (swift-subprocess tears it down when its task is
    /// cancelled) and the result is `nil`.
    ///
    /// - Throws: What the run throws, when it ends in time.
    package static func run(
        _ command: String, _ arguments: [String], in directory: URL? = nil, timeout: Duration
    ) async throws -> ProcessResult? {
        try await withThrowingTaskGroup(of: ProcessResult?.self) { group in
            group.addTask { try await run(command, arguments, in: directory) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            // The loser is cancelled; its CancellationError is never awaited, so never thrown.
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    private static func open(_ file: URL) throws -> FileDescriptor {
        try FileDescriptor.open(
            FilePath(file.path), .writeOnly, options: [.create, .truncate],
            permissions: [.ownerReadWrite, .groupRead, .otherRead])
    }

    /// True when `command` names an executable file in one of `PATH`'s folders.
    package static func isOnPath(_ command: String) -> Bool {
        executablePath(command) != nil
    }

    /// The file `command` runs: itself when it holds a `/`, else the first match on `PATH`.
    package static func executablePath(_ command: String) -> String? {
        if command.contains("/") {
            return FileManager.default.isExecutableFile(atPath: command) ? command : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(command)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
