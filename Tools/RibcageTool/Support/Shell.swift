import Foundation

/// What a finished child process left behind.
public struct ProcessResult: Sendable {
    /// The exit status, or the signal number when ``wasSignalled`` is true.
    public var status: Int32
    /// True when the process was killed by a signal instead of exiting.
    public var wasSignalled: Bool
    /// Everything the process wrote to standard output, unless it was streamed.
    public var standardOutput: Data
    /// Everything the process wrote to standard error, unless it was streamed.
    public var standardError: Data

    /// True when the process exited normally with status 0.
    public var succeeded: Bool { status == 0 && !wasSignalled }

    /// Standard output decoded as UTF-8.
    public var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error decoded as UTF-8.
    public var errorText: String { String(decoding: standardError, as: UTF8.self) }

    /// A short description of how the process ended, for error messages.
    public var terminationDescription: String {
        wasSignalled ? "was killed by signal \(status)" : "exited with status \(status)"
    }
}

/// Runs child processes for the tool: `swift`, `git`, `dot` and friends.
public enum Shell {
    /// Where a child's output goes.
    public enum Output: Sendable {
        /// Collected into ``ProcessResult/standardOutput`` and ``ProcessResult/standardError``.
        case capture
        /// Written straight to this process's standard error, so a person watching sees progress.
        case streamToStandardError
    }

    /// Runs `command` (looked up on `PATH`) with `arguments` and waits for it.
    ///
    /// Output is collected through temporary files rather than pipes, so a chatty child can never
    /// fill a pipe buffer and deadlock against us.
    ///
    /// - Throws: ``RibcageError/commandNotFound(_:hint:)`` when the command cannot be started.
    public static func run(
        _ command: String,
        _ arguments: [String],
        in directory: URL? = nil,
        output: Output = .capture
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = FileHandle.nullDevice

        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("ribcage-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        switch output {
        case .capture:
            process.standardOutput = outHandle
            process.standardError = errHandle
        case .streamToStandardError:
            process.standardOutput = FileHandle.standardError
            process.standardError = FileHandle.standardError
        }

        do {
            try process.run()
        } catch {
            try? outHandle.close()
            try? errHandle.close()
            throw RibcageError.commandNotFound(command, hint: nil)
        }
        process.waitUntilExit()
        try? outHandle.close()
        try? errHandle.close()

        // `/usr/bin/env` exits 127 when it cannot find the command.
        if process.terminationReason == .exit && process.terminationStatus == 127
            && (try? Data(contentsOf: errURL))?.isEmpty == false
            && !Shell.isOnPath(command)
        {
            throw RibcageError.commandNotFound(command, hint: nil)
        }

        return ProcessResult(
            status: process.terminationStatus,
            wasSignalled: process.terminationReason == .uncaughtSignal,
            standardOutput: (try? Data(contentsOf: outURL)) ?? Data(),
            standardError: (try? Data(contentsOf: errURL)) ?? Data())
    }

    /// True when `command` names an executable file in one of `PATH`'s folders.
    public static func isOnPath(_ command: String) -> Bool {
        if command.contains("/") { return FileManager.default.isExecutableFile(atPath: command) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { folder in
            FileManager.default.isExecutableFile(atPath: "\(folder)/\(command)")
        }
    }
}
