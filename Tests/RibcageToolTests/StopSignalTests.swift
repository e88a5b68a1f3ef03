import Foundation
import RibcagePackage
import Testing

/// The built `ribcage`, sent a signal alone (as a CI runner's cancel, `timeout` or `kill` send
/// it) while a fixture's test runs: it stops every process it started, down to what the test
/// started, before it exits as the signal says.
@Suite("ribcage stopped by a signal", .serialized, .timeLimit(.minutes(10)))
struct StopSignalTests {
    /// A package whose one test starts two children, one that ignores SIGTERM and one that
    /// counts the SIGTERMs it gets into `marker.terms` (only SIGKILL ends either), writes its
    /// process ID and the first child's to `marker`, then waits ten minutes.
    static func waitingFixture(marker: URL) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            # Counts the SIGTERMs it gets into the file $1; only SIGKILL ends it.
            trap 'n=$((n+1)); echo $n > "$1"' TERM
            n=0
            while :; do sleep 0.1; done

            """, to: "counter.sh")
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(name: "Waiting", targets: [
                .target(name: "Waiting"),
                .testTarget(name: "WaitingTests", dependencies: ["Waiting"]),
            ])
            """, to: "Package.swift")
        try folder.write("public let minutes = 10\n", to: "Sources/Waiting/Waiting.swift")
        try folder.write(
            """
            import Foundation
            import Testing
            import Waiting

            @Test func waits() async throws {
                let marker = "\(marker.path)"
                // A child that only SIGKILL ends; the shell has gone before the test goes on.
                let started = system("sh -c 'trap \\"\\" TERM; exec sleep 600' & echo $! > '\\(marker).child'")
                #expect(started == 0)
                let counter = startCounter(["/bin/sh", "\(folder.url.path)/counter.sh", marker + ".terms"])
                #expect(counter > 0)
                let child = try String(contentsOfFile: marker + ".child", encoding: .utf8)
                try "\\(getpid()) \\(child)".write(toFile: marker, atomically: true, encoding: .utf8)
                try await Task.sleep(for: .seconds(minutes * 60))
            }

            /// Starts `arguments` with no signal blocked, SIGTERM's default action and its output
            /// discarded, whatever this thread's mask: `system()` hands a child the calling
            /// thread's mask, which on a pool thread blocks SIGTERM, and a shell whose standard
            /// error is a pipe nobody reads any more dies of SIGPIPE saying a job was terminated.
            func startCounter(_ arguments: [String]) -> pid_t {
                var attributes = posix_spawnattr_t()
                posix_spawnattr_init(&attributes)
                defer { posix_spawnattr_destroy(&attributes) }
                var none = sigset_t()
                sigemptyset(&none)
                posix_spawnattr_setsigmask(&attributes, &none)
                var terminate = sigset_t()
                sigemptyset(&terminate)
                sigaddset(&terminate, SIGTERM)
                posix_spawnattr_setsigdefault(&attributes, &terminate)
                posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
                var actions = posix_spawn_file_actions_t()
                posix_spawn_file_actions_init(&actions)
                defer { posix_spawn_file_actions_destroy(&actions) }
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
                var argv = arguments.map { strdup($0) } + [nil]
                defer { argv.forEach { free($0) } }
                var pid = pid_t()
                return posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, environ) == 0 ? pid : -1
            }
            """, to: "Tests/WaitingTests/WaitingTests.swift")
        return folder
    }

    /// How `ribcage`, run with `arguments` on a waiting fixture and sent `signal` once the
    /// test waits, ended; the processes the test named; and the processes still alive, but for
    /// zombies, whose working folder is in the fixture (everything ribcage started works there).
    struct Stopped {
        var result: ProcessResult
        var test: pid_t
        var child: pid_t
        /// Whether the test process and its child had ended when ribcage had.
        var testEnded: Bool
        var childEnded: Bool
        var left: [String]
        /// How many SIGTERMs the counting child got (0 when it wrote nothing): never two, since
        /// a second tells a `ribcage` to end at once.
        var terms: Int
    }

    static func stopped(by signal: Int32, _ arguments: [String]) async throws -> Stopped {
        let scratch = try TemporaryFolder()
        let marker = scratch.url.appendingPathComponent("pids")
        let fixture = try waitingFixture(marker: marker)
        let cache = scratch.url.appendingPathComponent("cache").path
        let result = try await Shell.run(
            try await RibcageExecutableTests.ribcageExecutable().path,
            ["test", "--path", fixture.url.path] + arguments,
            environment: ["XDG_CACHE_HOME": cache]
        ) { ribcage in
            // The fixture builds first: give it the time a loaded machine takes.
            for _ in 0..<3_000 where !FileManager.default.fileExists(atPath: marker.path) {
                do {
                    try await Task.sleep(for: .milliseconds(100))
                } catch {
                    break
                }
            }
            kill(ribcage, signal)
        }
        let left = Self.processes(workingIn: fixture.url)
        let named = try String(contentsOf: marker, encoding: .utf8).split(separator: " ")
        let pids = named.compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(pids.count == 2, "the test wrote \(named)")
        let counted = URL(fileURLWithPath: marker.path + ".terms")
        let terms =
            FileManager.default.fileExists(atPath: counted.path)
            ? try #require(
                Int(
                    String(contentsOf: counted, encoding: .utf8).trimmingCharacters(
                        in: .whitespacesAndNewlines)))
            : 0
        let stopped = Stopped(
            result: result, test: pids[0], child: pids[1], testEnded: hasEnded(pids[0]),
            childEnded: hasEnded(pids[1]), left: left, terms: terms)
        // Nothing may outlive this test, whatever it finds.
        for pid in pids where !hasEnded(pid) { kill(pid, SIGKILL) }
        return stopped
    }

    /// Whether `pid` has ended: gone, or a zombie that its new parent has yet to reap.
    static func hasEnded(_ pid: pid_t) -> Bool {
        !ProcessTable.isRunning(pid)
    }

    /// The live processes whose working folder is `folder` or inside it, as `PID: command line`.
    static func processes(workingIn folder: URL) -> [String] {
        let root = folder.resolvingSymlinksInPath().path
        return ProcessTable.current().processes.compactMap { process -> String? in
            // A process that ended meanwhile has no working folder left to read.
            guard let cwd = ProcessTable.workingFolder(of: process.id),
                cwd == root || cwd.hasPrefix(root + "/")
            else { return nil }
            let command = ProcessTable.arguments(of: process.id) ?? []
            return "\(process.id): \(command.joined(separator: " "))"
        }
    }

    /// Checks that `stopped` exited with `status`, said it was stopped by `name`, and left
    /// nothing of what it started running.
    static func expectStoppedEverything(
        _ stopped: Stopped, status: Int32, by name: String, terms: ClosedRange<Int>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let result = stopped.result
        #expect(
            !result.wasSignalled && result.status == status,
            "\(result.terminationDescription)\n\(result.errorText)", sourceLocation: sourceLocation)
        #expect(
            result.errorText.contains("ribcage: stopped by \(name)"), "\(result.errorText)",
            sourceLocation: sourceLocation)
        #expect(
            stopped.testEnded, "the test process \(stopped.test) outlived ribcage",
            sourceLocation: sourceLocation)
        #expect(
            stopped.childEnded, "the test's child \(stopped.child) outlived ribcage",
            sourceLocation: sourceLocation)
        #expect(stopped.left.isEmpty, "left running: \(stopped.left)", sourceLocation: sourceLocation)
        #expect(
            terms.contains(stopped.terms), "SIGTERMs the counting child got", sourceLocation: sourceLocation)
    }

    @Test(
        "SIGTERM: swift test, the test process and the child it started, which ignores SIGTERM, end before ribcage; exit 143; a child that counts SIGTERMs got no second one"
    )
    func terminated() async throws {
        let stopped = try await Self.stopped(by: SIGTERM, [])
        Self.expectStoppedEverything(stopped, status: 143, by: "SIGTERM", terms: 1...1)
    }

    @Test(
        "SIGINT during a traced --cache run: strace, swift test, the test process and its child end before ribcage, which prints no results; exit 130; no process gets two SIGTERMs"
    )
    func interruptedWhileTraced() async throws {
        let stopped = try await Self.stopped(by: SIGINT, ["--cache"])
        // strace, ended by SIGTERM, takes every process it traces with it (SIGKILL, asked for
        // with PTRACE_O_EXITKILL): the counting child may have had no time to count.
        Self.expectStoppedEverything(stopped, status: 130, by: "SIGINT", terms: 0...1)
        #expect(
            !stopped.result.outputText.contains("passed"),
            "a stopped run printed results: \(stopped.result.outputText)")
    }
}
