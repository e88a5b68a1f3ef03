import BlockingWork
import Foundation
import RemoteExecution

/// Runs test targets as REAPI actions on a server (`ribcage test --remote-executor`): one
/// ``TestAction`` per test target, the bundle hashed and uploaded once for all of them, as many
/// executing at once as ``jobs``, each result read back into the ``TestSuiteResult`` a local run
/// would give.
///
/// The server's action cache answers an action it has run before with the same digest, so an
/// unchanged suite comes back without running. A red test, a crash and a run stopped at its
/// timeout are results, as they are locally. A server that cannot be reached, that breaks off
/// or that refuses an action is not: the suites it did not answer are handed back to be run
/// here, with a warning that says why.
package struct RemoteTestRunner: Sendable {
    package var endpoint: RemoteEndpoint
    /// The server's instance name, "" for its default.
    package var instanceName: String
    /// How many actions execute at once.
    package var jobs: Int
    /// How long one action may run on the worker.
    package var timeout: Duration
    package var packageRoot: URL
    /// The test bundle, built (`.build/debug/<Package>PackageTests.xctest`).
    package var bundle: URL
    /// Where each remote run's output is written, as `<Target>-remote.log`.
    package var reportsDirectory: URL
    /// The variables each action runs with.
    package var environment: [String: String]
    /// What names the workers' image in the actions' keys (``workerImage(toolchain:)``).
    package var workerImage: String
    /// Tests never to start, as Swift Testing's `--skip` pattern (the quarantine's skipped
    /// tests), in every action.
    package var skipPattern: String?

    package init(
        endpoint: RemoteEndpoint, instanceName: String, jobs: Int, timeout: Duration, packageRoot: URL,
        bundle: URL, reportsDirectory: URL, environment: [String: String], workerImage: String,
        skipPattern: String? = nil
    ) {
        self.endpoint = endpoint
        self.instanceName = instanceName
        self.jobs = jobs
        self.timeout = timeout
        self.packageRoot = packageRoot
        self.bundle = bundle
        self.reportsDirectory = reportsDirectory
        self.environment = environment
        self.workerImage = workerImage
        self.skipPattern = skipPattern
    }

    /// What the server answered, and what is left to run here.
    package struct Outcome: Sendable {
        /// A result per suite the server ran or answered from its cache, in the order given.
        package var results: [TestSuiteResult] = []
        /// Each remote run's output.
        package var logs: [URL] = []
        /// The suites the server did not answer, in the order given: run them here.
        package var unanswered: [TestSuite] = []
    }

    /// Runs `suites` on the server: one action per shard of each (one per test target unless
    /// `--remote-shards` split it), a target's result put together from its shards'.
    ///
    /// - Parameter note: Told why a suite, or every suite, is handed back to run here.
    package func run(_ suites: [RemoteSuitePlan.RemoteSuite], note: @escaping @Sendable (String) -> Void)
        async
        -> Outcome
    {
        guard !suites.isEmpty else { return Outcome() }
        do {
            try FileManager.default.createDirectory(at: reportsDirectory, withIntermediateDirectories: true)
            return try await RemoteExecutionClient.withClient(endpoint, instanceName: instanceName) {
                client in
                try await run(suites, on: client, note: note)
            }
        } catch {
            note("warning: remote execution: \(error); the \(suites.count) remote test target(s) run here")
            return Outcome(unanswered: suites.map(\.suite))
        }
    }

    /// One action's part of a remote test target: all of it, or one of its shards.
    private struct Job: Sendable {
        var remote: RemoteSuitePlan.RemoteSuite
        var shard: RemoteTestShard
        var testTarget: String { remote.suite.testTarget }
        /// The test target, and which shard when it has several: unique in a run.
        var id: String { shard.count == 1 ? testTarget : "\(testTarget) (\(shard.label))" }
    }

    private func run(
        _ suites: [RemoteSuitePlan.RemoteSuite], on client: RemoteExecutionClient,
        note: @escaping @Sendable (String) -> Void
    ) async throws -> Outcome {
        let capabilities = try await client.capabilities()
        guard capabilities.executionCapabilities.execEnabled else {
            throw RemoteExecutionError.unsupported("execution (it is a cache only)")
        }
        let jobs = suites.flatMap { remote in remote.shards.map { Job(remote: remote, shard: $0) } }
        var finished: [String: Finished] = [:]
        // A test target one of whose actions cannot be answered runs here whole.
        var handedBack: Set<String> = []
        // First the stand-ins, keyed by what the bundle is built from: they never read it.
        let digests = FileDigests()
        let standIns = await prepare(jobs, note: note, handedBack: &handedBack) { job in
            try TestAction.standIn(
                packageRoot: packageRoot, testBundle: bundle, filter: job.shard.filter,
                skip: job.shard.skip(with: skipPattern),
                files: job.remote.files, builtFrom: job.remote.builtFrom, environment: environment,
                workerImage: workerImage, timeout: timeout, digests: digests)
        }
        do {
            var misses: [Job] = []
            for (job, standIn) in standIns where !handedBack.contains(job.testTarget) {
                if let hit = try await lookUp(standIn, of: job, on: client) {
                    finished[job.id] = hit
                } else {
                    misses.append(job)
                }
            }
            // Then the runs: the bundle is hashed once for all of them, and uploaded once.
            let actions = await prepare(misses, note: note, handedBack: &handedBack) { job in
                try TestAction(
                    packageRoot: packageRoot, testBundle: bundle, filter: job.shard.filter,
                    skip: job.shard.skip(with: skipPattern), files: job.remote.files + job.remote.builtFiles,
                    environment: environment, workerImage: workerImage, timeout: timeout, digests: digests)
            }
            .filter { !handedBack.contains($0.0.testTarget) }
            var blobs: [BlobDigest: BlobSource] = [:]
            for (_, action) in actions { blobs.merge(action.blobs) { first, _ in first } }
            try await client.upload(blobs)
            let executed = await execute(actions, on: client)
            let standInByJob = Dictionary(
                standIns.map { ($0.0.id, $0.1) }, uniquingKeysWith: { first, _ in first })
            try await collect(
                executed, of: actions, standIns: standInByJob, on: client, into: &finished,
                handedBack: &handedBack, note: note)
        } catch {
            // The answers found so far stand; the rest run here.
            note("warning: remote execution: \(error); the test target(s) it did not answer run here")
        }
        var outcome = Outcome()
        for remote in suites {
            let runs = remote.shards.compactMap { finished[Job(remote: remote, shard: $0).id] }
            guard !handedBack.contains(remote.suite.testTarget), runs.count == remote.shards.count else {
                outcome.unanswered.append(remote.suite)
                continue
            }
            outcome.results.append(Finished.result(of: remote.suite, fromShards: runs))
            outcome.logs += runs.map(\.log)
            for problem in runs.compactMap(\.problem) { note("warning: remote execution: \(problem)") }
        }
        return outcome
    }

    /// Takes what each executed action came to: a result into `finished` (a clean green one
    /// kept under its stand-in's key when it may be), the test target of an action the server
    /// did not answer into `handedBack`.
    private func collect(
        _ executed: [String: Result<Finished, RemoteExecutionError>], of actions: [(Job, TestAction)],
        standIns: [String: TestAction], on client: RemoteExecutionClient,
        into finished: inout [String: Finished], handedBack: inout Set<String>,
        note: @Sendable (String) -> Void
    ) async throws(RemoteExecutionError) {
        var lost: RemoteExecutionError?
        var lostTargets: Set<String> = []
        var storeRefused = false
        for (job, action) in actions {
            switch executed[job.id] {
            case .success(let run)?:
                finished[job.id] = run
                // Kept only when the bundle is known to be built from the sources the key names,
                // and the run read the very files the stand-in names.
                guard run.result.isCleanlyGreen, job.remote.mayStore, !storeRefused,
                    let standIn = standIns[job.id], standIn.standsIn(for: action)
                else { continue }
                do {
                    try await client.storeResult(run.actionResult, of: standIn.actionDigest)
                } catch {
                    if error.meansTheServerIsGone { throw error }
                    // A server may keep its action cache to itself; results then last only while
                    // the bundle does.
                    storeRefused = true
                    note(
                        "warning: remote execution: results cannot be kept under their sources' key: \(error)"
                    )
                }
            case .failure(let error)? where !error.meansTheServerIsGone:
                if handedBack.insert(job.testTarget).inserted {
                    note("warning: remote execution: \(error); \(job.testTarget) runs here")
                }
            case .failure(let error)?:
                lost = lost ?? error
                lostTargets.insert(job.testTarget)
                handedBack.insert(job.testTarget)
            case nil:
                // Never started: the server was gone by then.
                lostTargets.insert(job.testTarget)
                handedBack.insert(job.testTarget)
            }
        }
        if let lost {
            note(
                "warning: remote execution: \(lost); the \(lostTargets.count) test target(s) it did not answer run here"
            )
        }
    }

    /// `make` for each of `jobs`, off the cooperative pool (it hashes files); the test target of
    /// a job whose action cannot be made is handed back with a note.
    private func prepare(
        _ jobs: [Job], note: @Sendable (String) -> Void, handedBack: inout Set<String>,
        _ make: @escaping @Sendable (Job) throws -> TestAction
    ) async -> [(Job, TestAction)] {
        let made = await DedicatedThread.run(named: "ribcage-remote-actions") {
            jobs.map { job in Result { try make(job) } }
        }
        var actions: [(Job, TestAction)] = []
        for (job, action) in zip(jobs, made) {
            switch action {
            case .success(let action): actions.append((job, action))
            case .failure(let error):
                if handedBack.insert(job.testTarget).inserted {
                    note("warning: remote execution: \(error); \(job.testTarget) runs here")
                }
            }
        }
        return actions
    }

    /// The green result the action cache holds for `standIn`, read back; nil when it holds none,
    /// or one whose outputs the server no longer has.
    private func lookUp(
        _ standIn: TestAction, of job: Job, on client: RemoteExecutionClient
    ) async throws(RemoteExecutionError) -> Finished? {
        guard let cached = try await client.cachedResult(of: standIn.actionDigest), cached.exitCode == 0
        else {
            return nil
        }
        let reports: TestAction.Reports
        do {
            reports = try await TestAction.reports(of: cached, from: client)
        } catch .missingBlobs {
            return nil
        }
        let execution = RemoteExecutionClient.Execution(result: cached, cachedResult: true, message: "")
        return await finished(job, execution: execution, reports: reports)
    }

    /// Executes `actions`, ``jobs`` at a time; once the server is gone, starts no more.
    private func execute(
        _ actions: [(Job, TestAction)], on client: RemoteExecutionClient
    ) async -> [String: Result<Finished, RemoteExecutionError>] {
        await withTaskGroup(of: (String, Result<Finished, RemoteExecutionError>).self) { group in
            var pending = actions[...]
            var finished: [String: Result<Finished, RemoteExecutionError>] = [:]
            var running = 0
            while true {
                while running < max(1, jobs), let (job, action) = pending.popFirst() {
                    group.addTask {
                        (job.id, await self.outcome(of: action, of: job, on: client))
                    }
                    running += 1
                }
                guard let (id, result) = await group.next() else { break }
                running -= 1
                finished[id] = result
                if case .failure(let error) = result, error.meansTheServerIsGone { pending = [] }
            }
            return finished
        }
    }

    /// ``execute(_:of:on:)``'s result or failure, as a value.
    private func outcome(of action: TestAction, of job: Job, on client: RemoteExecutionClient) async
        -> Result<Finished, RemoteExecutionError>
    {
        do {
            return .success(try await execute(action, of: job, on: client))
        } catch {
            return .failure(error)
        }
    }

    private func execute(_ action: TestAction, of job: Job, on client: RemoteExecutionClient)
        async throws(RemoteExecutionError) -> Finished
    {
        // The wait covers queueing on a busy pool as well as the run.
        var execution = try await client.execute(action.actionDigest, timeout: timeout * 2 + .seconds(60))
        if execution.cachedResult, execution.result.exitCode != 0 {
            // A server may keep red results too (buildbox-casd does); a red test is never
            // answered from a cache, as here: it runs again.
            execution = try await client.execute(
                action.actionDigest, skipCacheLookup: true, timeout: timeout * 2 + .seconds(60))
        }
        let reports = try await TestAction.reports(of: execution.result, from: client)
        return await finished(job, execution: execution, reports: reports)
    }

    /// ``Finished/init(_:execution:reports:log:packageRoot:timeout:)`` on a thread of its own:
    /// the reports of a large suite are megabytes.
    private func finished(
        _ job: Job, execution: RemoteExecutionClient.Execution, reports: TestAction.Reports
    ) async -> Finished {
        let name =
            job.shard.count == 1
            ? job.testTarget : "\(job.testTarget)-shard-\(job.shard.index)-of-\(job.shard.count)"
        let log = reportsDirectory.appendingPathComponent("\(name)-remote.log")
        let (packageRoot, timeout, suite) = (packageRoot, timeout, job.remote.suite)
        return await DedicatedThread.run(named: "ribcage-test-reports") {
            Finished(
                suite, execution: execution, reports: reports, log: log, packageRoot: packageRoot,
                timeout: timeout)
        }
    }

    /// What names a worker's image in an action's key: the toolchain's `swift --version`, the
    /// system's name and version, and the machine's architecture. Two pools whose workers
    /// differ in these never share results.
    package static func workerImage(toolchain: String) -> String {
        // A system without the file is named so, which still sets it apart from one that has it.
        let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let system =
            release.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }.map {
                $0.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            } ?? "unknown system"
        var name = utsname()
        uname(&name)
        let machine = withUnsafeBytes(of: &name.machine) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        return "\(toolchain.trimmingCharacters(in: .whitespacesAndNewlines)); \(system); \(machine)"
    }
}

extension RemoteExecutionError {
    /// The server is no longer there to answer (unreachable, the connection broke, no answer
    /// within the deadline): the suites left go to this machine.
    var meansTheServerIsGone: Bool {
        switch self {
        case .unreachable, .connectionLost, .timedOut, .cancelled: true
        default: false
        }
    }
}
