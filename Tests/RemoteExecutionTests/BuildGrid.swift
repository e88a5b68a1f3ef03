import Foundation
import RemoteExecution
import RibcagePackage
import Subprocess
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A BuildGrid scheduler (with its own PostgreSQL) on a loopback port, started by a test through
/// `Tools/reapi/buildgrid serve`, and `ribcage worker`s that make its pool.
///
/// BuildGrid, its database and each worker run in process groups of their own: ``stop()`` and
/// ``Worker/kill()`` end them with what they started (the runner, its sandbox), as a machine
/// going away would for a worker.
struct BuildGrid: Sendable {
    let endpoint: RemoteEndpoint
    let folder: URL
    /// The script ended before BuildGrid served; ``waitUntilServing(server:)`` collected its
    /// exit, so its PID must not be signalled again (it may be another process's by then).
    struct ScriptEnded: Error, CustomStringConvertible {
        var description: String
    }

    /// How long a worker may go quiet before BuildGrid ends its session and gives its lease to
    /// another: short, so the killed-worker case takes seconds.
    static let botTimeout = 6

    /// What BuildGrid logged so far, or why the log cannot be read.
    var log: String { Self.read(folder.appendingPathComponent("buildgrid.log")) }

    /// A `ribcage worker` of this pool.
    struct Worker: Sendable {
        let name: String
        let processGroup: pid_t
        let logFile: URL

        /// What the worker said so far (`lease … taken`, `lease … ran`).
        var log: String { BuildGrid.read(logFile) }

        /// Kills the worker and the runner and sandbox it started, as a crash of its machine.
        /// The runner leads a session of its own (a stopped `ribcage` stops it, Decision 46), so
        /// the worker's process group alone does not hold it.
        func kill() {
            let runners = BuildGrid.processesInSessionsLed(byChildrenOf: processGroup)
            _ = Glibc.kill(-processGroup, SIGKILL)
            for pid in runners { _ = Glibc.kill(pid, SIGKILL) }
        }

        /// Sends SIGTERM to the worker alone, as a service manager stops it: what it started is
        /// its to stop.
        func terminate() {
            _ = Glibc.kill(processGroup, SIGTERM)
        }

        /// The worker's exit status once it has exited, collected without holding a thread; nil
        /// if it still runs after `seconds`, or ended by a signal.
        func exitStatus(within seconds: Int) async -> Int32? {
            for _ in 0..<(seconds * 10) {
                var status: Int32 = 0
                if waitpid(processGroup, &status, WNOHANG) == processGroup {
                    // WIFEXITED and WEXITSTATUS, which Swift does not import.
                    return status & 0x7f == 0 ? (status >> 8) & 0xff : nil
                }
                do {
                    try await Task.sleep(for: .milliseconds(100))
                } catch {
                    return nil
                }
            }
            return nil
        }
    }

    /// The processes, but for zombies, in the sessions that `parent`'s children lead.
    static func processesInSessionsLed(byChildrenOf parent: pid_t) -> [pid_t] {
        let table = ProcessTable.current()
        let leaders = Set(table.processes.filter { $0.parent == parent && $0.session == $0.id }.map(\.id))
        return table.processes.filter { leaders.contains($0.session) }.map(\.id)
    }

    static func read(_ file: URL) -> String {
        do {
            return try String(contentsOf: file, encoding: .utf8)
        } catch {
            return "(\(file.lastPathComponent) could not be read: \(error))"
        }
    }

    /// Starts BuildGrid and `workers` workers named w1, w2…, runs `body`, then stops them all and
    /// removes their folder, whether the body passed or threw.
    static func withPool<T: Sendable>(
        workers count: Int, ribcage: String, _ body: (BuildGrid, [Worker]) async throws -> T
    ) async throws -> T {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let engine = try await output(of: root.appendingPathComponent("Tools/reapi/engine").path, ["fetch"])
        // A fresh machine installs BuildGrid from PyPI here, not inside the wait for it to serve.
        let script = root.appendingPathComponent("Tools/reapi/buildgrid").path
        _ = try await output(of: script, ["fetch"])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcage-buildgrid-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { removeRecordingFailure(folder) }
        let port = Int.random(in: 30_000..<40_000)
        let grid = BuildGrid(endpoint: .tcp(host: "127.0.0.1", port: port), folder: folder)
        let server = try start(
            script,
            ["serve", String(port), folder.appendingPathComponent("state").path],
            log: folder.appendingPathComponent("buildgrid.log"),
            environment: ["BUILDGRID_BOT_TIMEOUT": String(botTimeout), "BUILDGRID_VERBOSE": "1"])
        var workers: [Worker] = []
        let outcome: Result<T, any Error>
        var scriptEnded = false
        do {
            try await grid.waitUntilServing(server: server)
            for index in 1...count {
                let name = "w\(index)"
                let logFile = folder.appendingPathComponent("\(name).log")
                let group = try start(
                    ribcage,
                    [
                        "worker", "--bots-server", grid.endpoint.description, "--bot-id", name,
                        "--runner", engine + "/buildbox-run", "--scratch", folder.path,
                    ], log: logFile)
                workers.append(Worker(name: name, processGroup: group, logFile: logFile))
            }
            outcome = .success(try await body(grid, workers))
        } catch {
            scriptEnded = error is ScriptEnded
            outcome = .failure(error)
        }
        // Whatever happened, nothing of the pool stays: workers die at once; the script gets
        // SIGTERM to stop BuildGrid and its database in order, and its whole group SIGKILL if it
        // has not ended within 30 s (or the test is being cancelled).
        for worker in workers {
            worker.kill()
            _ = await reap(worker.processGroup, seconds: 5)
        }
        var stopped = scriptEnded
        if !stopped {
            _ = Glibc.kill(server, SIGTERM)
            stopped = await reap(server, seconds: 30)
        }
        if !stopped {
            _ = Glibc.kill(-server, SIGKILL)
            // The script had no chance to remove its database cluster: the folder it named goes.
            let named = folder.appendingPathComponent("state/cluster")
            if let cluster = FileManager.default.contents(atPath: named.path) {
                removeRecordingFailure(
                    URL(
                        fileURLWithPath: String(decoding: cluster, as: UTF8.self)
                            .trimmingCharacters(in: .whitespacesAndNewlines)))
            }
        }
        let value = try outcome.get()
        if !stopped {
            throw Casd.Failure(description: "BuildGrid did not stop within 30 s of SIGTERM:\n\(grid.log)")
        }
        return value
    }

    /// Waits, without holding a thread, until the child `pid` has exited and collects it; false
    /// when it still runs after `seconds`, or the task is cancelled first.
    private static func reap(_ pid: pid_t, seconds: Int) async -> Bool {
        for _ in 0..<(seconds * 10) {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) != 0 { return true }
            do {
                try await Task.sleep(for: .milliseconds(100))
            } catch {
                return false
            }
        }
        return false
    }

    /// Starts `executable` in a process group of its own, its output and errors to `log`, and
    /// returns its process ID without waiting for it.
    private static func start(
        _ executable: String, _ arguments: [String], log: URL, environment: [String: String] = [:]
    ) throws -> pid_t {
        let file = try FileDescriptor.open(
            FilePath(log.path), .writeOnly, options: [.create, .truncate], permissions: [.ownerReadWrite])
        let pid: pid_t
        do {
            pid = try spawn(executable, arguments, output: file, environment: environment)
        } catch {
            try file.close()
            throw error
        }
        do {
            // The child holds its own copy of the log; this one only had to reach it.
            try file.close()
        } catch {
            _ = Glibc.kill(-pid, SIGKILL)
            throw error
        }
        return pid
    }

    private static func spawn(
        _ executable: String, _ arguments: [String], output file: FileDescriptor,
        environment: [String: String]
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, file.rawValue, 1)
        posix_spawn_file_actions_adddup2(&actions, file.rawValue, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The spawning thread is one of the cooperative pool's, which block signals; a child
        // inherits that mask, and the server script would never see its SIGTERM.
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw Casd.Failure(
                description: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        return pid
    }

    /// The last line of what `script arguments` printed, or a failure with its errors.
    private static func output(of script: String, _ arguments: [String]) async throws -> String {
        let result = try await Subprocess.run(
            .path(FilePath(script)), arguments: Arguments(arguments), output: .string(limit: 1 << 16),
            error: .string(limit: 1 << 20))
        guard result.terminationStatus.isSuccess, let last = result.standardOutput.split(separator: "\n").last
        else {
            throw Casd.Failure(description: "\(script) \(arguments) failed: \(result.standardError)")
        }
        return String(last)
    }

    /// Returns once BuildGrid answers GetCapabilities; throws with its log when the script has
    /// ended, or after two minutes.
    private func waitUntilServing(server: pid_t) async throws {
        for _ in 0..<1_200 {
            var status: Int32 = 0
            if waitpid(server, &status, WNOHANG) == server {
                throw ScriptEnded(description: "Tools/reapi/buildgrid serve ended before serving:\n\(log)")
            }
            do {
                _ = try await RemoteExecutionClient.withClient(endpoint) { try await $0.capabilities() }
                return
            } catch RemoteExecutionError.unreachable {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        throw Casd.Failure(description: "BuildGrid did not answer on \(endpoint) within two minutes:\n\(log)")
    }
}
