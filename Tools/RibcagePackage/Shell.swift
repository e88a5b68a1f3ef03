import BlockingWork
import Foundation
import Subprocess
import Synchronization

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
///
/// A run whose task is cancelled stops its child and throws `CancellationError`. Under
/// ``stopsDescendants`` the child leads a session of its own, and everything in that session is
/// stopped: `swift test` with its test processes and all they started, not only the `swift` at
/// the top.
package enum Shell {
    /// Whether a child starts a session of its own (``ProcessSession``), all of which a
    /// cancelled run stops: SIGTERM to every process in it at once, SIGKILL to what is left after
    /// ``stopGrace``.
    ///
    /// The `ribcage` executable sets it around a command's work, because it stops that work
    /// itself on SIGINT, SIGTERM and SIGHUP: a signal sent to the tool alone (a CI runner's
    /// cancel, `timeout`, `kill`) then still reaches every process the tool started. Anywhere
    /// else it is off: a child stays in its parent's process group and session, where a
    /// terminal's Ctrl-C reaches it directly, as a test process's children must.
    @TaskLocal package static var stopsDescendants = false

    /// How long a cancelled child, and then what is left of its session, has between SIGTERM
    /// and SIGKILL: 10 s, or what `RIBCAGE_STOP_GRACE` says in seconds.
    ///
    /// A child gets half of it in its `RIBCAGE_STOP_GRACE`, so that a `ribcage` a test started
    /// (a member of the session) stops what it started before its own time is up.
    package static let stopGrace: Duration = {
        let seconds = ProcessInfo.processInfo.environment[stopGraceVariable].flatMap(Double.init)
        guard let seconds, seconds > 0 else { return .seconds(10) }
        return .milliseconds(Int(seconds * 1_000))
    }()

    private static let stopGraceVariable = "RIBCAGE_STOP_GRACE"

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
    ///   ``RibcageError/outOfFileDescriptors(command:limit:)`` when too few descriptors are free
    ///   to start it safely (``DescriptorHeadroom``),
    ///   `CancellationError` when the task was cancelled (the child, if started, was stopped
    ///   and has ended), or the file system's error when its captured output cannot be read back
    ///   (empty output would pass for what the command said).
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

        try Task.checkCancellation()
        let executable: Executable = command.contains("/") ? .path(FilePath(command)) : .name(command)
        let workingDirectory = directory.map { FilePath($0.path) }
        var keys: [Environment.Key: String?] = [:]
        for (name, value) in environment { keys[Environment.Key(stringLiteral: name)] = value }
        if stopsDescendants {
            let half =
                Double(stopGrace.components.seconds) / 2
                + Double(stopGrace.components.attoseconds) / 2e18
            keys[Environment.Key(stringLiteral: stopGraceVariable)] = String(half)
        }
        let childEnvironment = Environment.inherit.updating(keys)
        var platformOptions = PlatformOptions()
        if stopsDescendants {
            platformOptions.createSession = true
            platformOptions.teardownSequence = [
                .gracefulShutDown(toProcessGroup: true, allowedDurationToNextStep: stopGrace)
            ]
        }

        // The session the child leads, under `stopsDescendants`: known once it has started.
        let session = StartedSession()
        let started: @Sendable (pid_t) async -> Void = { pid in
            if stopsDescendants { session.started(ProcessSession(ledBy: pid)) }
            await whileRunning?(pid)
        }
        let status: TerminationStatus
        do {
            status = try await withTaskCancellationHandler {
                try await runChild(
                    command, executable, arguments, in: workingDirectory, environment: childEnvironment,
                    platformOptions: platformOptions, output: output, outFile: outFile, errFile: errFile,
                    started: started)
            } onCancel: {
                // At once, to the whole session: SwiftPM and the tests start processes in groups
                // of their own, which swift-subprocess's teardown (a signal to the child's group)
                // does not reach.
                session.terminateMembersSoon()
            }
        } catch {
            await session.stopMembersIfCancelled()
            // Output that stopped coming because the child was stopped says nothing either.
            try Task.checkCancellation()
            if let error = error as? SubprocessError, error.code == .executableNotFound {
                throw RibcageError.commandNotFound(command, hint: nil)
            }
            // Only a folder that is not there is "no package": swift-subprocess reports other
            // failures of the child's start-up this way too (seen out of descriptors, EMFILE).
            if let error = error as? SubprocessError, error.code == .failedToChangeWorkingDirectory,
                let directory, !FileManager.default.fileExists(atPath: directory.path)
            {
                throw RibcageError.noPackage(path: directory.path)
            }
            throw error
        }
        await session.stopMembersIfCancelled()

        // A child stopped because its run was cancelled says nothing about the child.
        try Task.checkCancellation()
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

    /// Starts the child with its output going where `output` says, and waits for it to end.
    private static func runChild(
        _ command: String, _ executable: Executable, _ arguments: [String], in workingDirectory: FilePath?,
        environment: Environment, platformOptions: PlatformOptions, output: Output, outFile: URL,
        errFile: URL, started childStarted: @escaping @Sendable (pid_t) async -> Void
    ) async throws -> TerminationStatus {
        // The descriptors given to the child stay this run's to close (`closeAfterSpawningProcess:
        // false`), its standard input included: swift-subprocess 1.0.2 traps ("FileDescriptor …
        // was not closed") when it drops one it was to close on a path that throws first, such as
        // running out of descriptors (EMFILE) while it opens the child's standard input.
        let start = try await DescriptorHeadroom.beginStart(of: command)
        defer { start.end() }
        let nothing: FileDescriptor
        do {
            nothing = try FileDescriptor.open("/dev/null", .readOnly)
        } catch Errno.tooManyOpenFiles {
            throw RibcageError.outOfFileDescriptors(command: command, limit: DescriptorHeadroom.softLimit)
        }
        defer { try? nothing.close() }
        let started: @Sendable (pid_t) async -> Void = { pid in
            start.end()
            await childStarted(pid)
        }
        let input: FileDescriptorInput = .fileDescriptor(nothing, closeAfterSpawningProcess: false)
        switch output {
        case .capture:
            let out = try open(outFile)
            defer { try? out.close() }
            let err = try open(errFile)
            defer { try? err.close() }
            return try await Subprocess.run(
                executable, arguments: Arguments(arguments), environment: environment,
                workingDirectory: workingDirectory, platformOptions: platformOptions, input: input,
                output: .fileDescriptor(out, closeAfterSpawningProcess: false),
                error: .fileDescriptor(err, closeAfterSpawningProcess: false)
            ) { execution in
                await started(execution.processIdentifier.value)
            }.terminationStatus
        case .file(let log):
            let out = try open(log)
            defer { try? out.close() }
            // Standard error to a copy of the log's descriptor, not `.combinedWithOutput`: that
            // copy would inherit "not ours to close" and be left open by everyone.
            let err = try out.duplicate()
            defer { try? err.close() }
            return try await Subprocess.run(
                executable, arguments: Arguments(arguments), environment: environment,
                workingDirectory: workingDirectory, platformOptions: platformOptions, input: input,
                output: .fileDescriptor(out, closeAfterSpawningProcess: false),
                error: .fileDescriptor(err, closeAfterSpawningProcess: false)
            ) { execution in
                await started(execution.processIdentifier.value)
            }.terminationStatus
        case .fileAndStandardError(let log):
            let file = try open(log)
            defer { try? file.close() }
            let configuration = Configuration(
                executable: executable, arguments: Arguments(arguments), environment: environment,
                workingDirectory: workingDirectory, platformOptions: platformOptions)
            // swift-subprocess makes the output's pipe and a copy of it for standard error; out
            // of descriptors between the two, it still traps (the pipe is its to close).
            return try await Subprocess.run(
                configuration, input: input, output: .sequence, error: .combinedWithOutput
            ) { execution in
                async let watched: Void = started(execution.processIdentifier.value)
                for try await buffer in execution.standardOutput {
                    try buffer.withUnsafeBytes { bytes in
                        _ = try file.writeAll(bytes)
                        _ = try FileDescriptor.standardError.writeAll(bytes)
                    }
                }
                _ = await watched
            }.terminationStatus
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

/// The session a run's child leads, once the child has started: what a cancelled run stops.
private final class StartedSession: Sendable {
    private struct State {
        var session: ProcessSession?
        /// When the run's task was cancelled: the session's grace counts from then.
        var cancelledAt: ContinuousClock.Instant?
        /// The members sent SIGTERM: each is told once. A second SIGTERM would tell a `ribcage`
        /// among them to end at once, before it has stopped what it started.
        var told: Set<pid_t> = []
    }

    private let state = Mutex(State())

    func started(_ started: ProcessSession) {
        state.withLock { $0.session = started }
    }

    /// Sends SIGTERM to every process of the session, from a thread of its own: this is called
    /// from a cancellation handler, which may run on the cooperative pool and must not read
    /// `/proc` there.
    func terminateMembersSoon() {
        let session = state.withLock { state in
            state.cancelledAt = state.cancelledAt ?? .now
            return state.session
        }
        guard let session else { return }
        Thread.detachNewThread { self.terminateNewMembers(of: session) }
    }

    /// In a cancelled task, stops what is left of the session after its leader has ended:
    /// SIGTERM to members not yet told, SIGKILL to all that are left ``Shell/stopGrace`` after
    /// the cancel.
    ///
    /// Looks for members only while some are alive: a session ID stays taken while any process
    /// is in the session, so the ID cannot meanwhile name another session.
    func stopMembersIfCancelled() async {
        let (session, cancelledAt) = state.withLock { ($0.session, $0.cancelledAt) }
        guard Task.isCancelled, let session else { return }
        let deadline = (cancelledAt ?? .now) + Shell.stopGrace
        while true {
            let left = await DedicatedThread.run(named: "ribcage-session-members") { session.members() }
            // A process in uninterruptible sleep (a hung network mount) takes its SIGKILL only
            // when it wakes: it is not waited for past a few more seconds.
            if left.isEmpty || ContinuousClock.now > deadline + .seconds(5) { return }
            if ContinuousClock.now < deadline {
                await DedicatedThread.run(named: "ribcage-session-members") {
                    self.terminateNewMembers(of: session)
                }
            } else {
                // Looked at again after the pause: a member may have started another (a shell
                // loop its next command) between the look and the kill.
                for member in left { kill(member, SIGKILL) }
            }
            // A pause that a cancelled task still waits out (its `Task.sleep` would end at once):
            // stopping must finish. A timer, so no thread is held meanwhile.
            await withCheckedContinuation { (paused: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { paused.resume() }
            }
        }
    }

    /// Sends SIGTERM to the members of `session` not told before, but for those traced by
    /// another member: that tracer (`strace -f`), told too, ends and detaches, and a signal it
    /// held for its tracee would be lost. They are told once it has let go (this is called
    /// again until the session is empty). A tracer outside the session passes signals on.
    private func terminateNewMembers(of session: ProcessSession) {
        let all = session.members()
        let inSession = Set(all)
        let members = all.filter { member in
            ProcessTable.tracer(of: member).map { !inSession.contains($0) } ?? true
        }
        let new = state.withLock { state in
            let new = members.filter { !state.told.contains($0) }
            state.told.formUnion(new)
            return new
        }
        for member in new { kill(member, SIGTERM) }
    }
}
