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

    /// Runs `suites` on the server.
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

    private func run(
        _ suites: [RemoteSuitePlan.RemoteSuite], on client: RemoteExecutionClient,
        note: @escaping @Sendable (String) -> Void
    ) async throws -> Outcome {
        let capabilities = try await client.capabilities()
        guard capabilities.executionCapabilities.execEnabled else {
            throw RemoteExecutionError.unsupported("execution (it is a cache only)")
        }
        var outcome = Outcome()
        var finished: [String: Finished] = [:]
        // First the stand-ins, keyed by what the bundle is built from: they never read it.
        let digests = FileDigests()
        let standIns = await prepare(suites, note: note, outcome: &outcome) { remote in
            try TestAction.standIn(
                packageRoot: packageRoot, testBundle: bundle, filter: Self.filter(remote.suite),
                skip: skipPattern,
                files: remote.files, builtFrom: remote.builtFrom, environment: environment,
                workerImage: workerImage, timeout: timeout, digests: digests)
        }
        var misses: [RemoteSuitePlan.RemoteSuite] = []
        do {
            for (remote, standIn) in standIns {
                if let hit = try await lookUp(standIn, of: remote.suite, on: client) {
                    finished[remote.suite.testTarget] = hit
                } else {
                    misses.append(remote)
                }
            }
            // Then the runs: the bundle is hashed once for all of them, and uploaded once.
            let actions = await prepare(misses, note: note, outcome: &outcome) { remote in
                try TestAction(
                    packageRoot: packageRoot, testBundle: bundle, filter: Self.filter(remote.suite),
                    skip: skipPattern, files: remote.files + remote.builtFiles, environment: environment,
                    workerImage: workerImage, timeout: timeout, digests: digests)
            }
            var blobs: [BlobDigest: BlobSource] = [:]
            for (_, action) in actions { blobs.merge(action.blobs) { first, _ in first } }
            try await client.upload(blobs)
            let executed = await execute(actions.map { ($0.0.suite, $0.1) }, on: client)
            let standInByTarget = Dictionary(
                standIns.map { ($0.0.suite.testTarget, $0) }, uniquingKeysWith: { first, _ in first })
            try await collect(
                executed, of: actions, standIns: standInByTarget, on: client, into: &finished,
                outcome: &outcome,
                note: note)
        } catch {
            // The answers found so far stand; the rest run here.
            note("warning: remote execution: \(error); the test target(s) it did not answer run here")
            let answered = Set(finished.keys).union(outcome.unanswered.map(\.testTarget))
            outcome.unanswered += suites.map(\.suite).filter { !answered.contains($0.testTarget) }
        }
        for remote in suites {
            guard let run = finished[remote.suite.testTarget] else { continue }
            outcome.results.append(run.result)
            outcome.logs.append(run.log)
            if let problem = run.problem { note("warning: remote execution: \(problem)") }
        }
        let unanswered = Set(outcome.unanswered)
        outcome.unanswered = suites.map(\.suite).filter { unanswered.contains($0) }
        return outcome
    }

    /// Takes what each executed action came to: a result into `finished` (a clean green one
    /// kept under its stand-in's key when it may be), a suite the server did not answer into
    /// `outcome`'s unanswered.
    private func collect(
        _ executed: [String: Result<Finished, RemoteExecutionError>],
        of actions: [(RemoteSuitePlan.RemoteSuite, TestAction)],
        standIns: [String: (RemoteSuitePlan.RemoteSuite, TestAction)], on client: RemoteExecutionClient,
        into finished: inout [String: Finished], outcome: inout Outcome, note: @Sendable (String) -> Void
    ) async throws(RemoteExecutionError) {
        var lost: RemoteExecutionError?
        var lostCount = 0
        var storeRefused = false
        for (remote, action) in actions {
            let testTarget = remote.suite.testTarget
            switch executed[testTarget] {
            case .success(let run)?:
                finished[testTarget] = run
                // Kept only when the bundle is known to be built from the sources the key names,
                // and the run read the very files the stand-in names.
                guard run.result.isCleanlyGreen, remote.mayStore, !storeRefused,
                    let standIn = standIns[testTarget]?.1, standIn.standsIn(for: action)
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
                note("warning: remote execution: \(error); \(testTarget) runs here")
                outcome.unanswered.append(remote.suite)
            case .failure(let error)?:
                lost = lost ?? error
                lostCount += 1
                outcome.unanswered.append(remote.suite)
            case nil:
                // Never started: the server was gone by then.
                lostCount += 1
                outcome.unanswered.append(remote.suite)
            }
        }
        if let lost {
            note(
                "warning: remote execution: \(lost); the \(lostCount) test target(s) it did not answer run here"
            )
        }
    }

    /// Swift Testing's filter for a test target's tests: its module name, then a dot.
    private static func filter(_ suite: TestSuite) -> String {
        "^\(suite.testTarget)\\."
    }

    /// `make` for each of `suites`, off the cooperative pool (it hashes files); a suite whose
    /// action cannot be made is handed back with a note.
    private func prepare(
        _ suites: [RemoteSuitePlan.RemoteSuite], note: @Sendable (String) -> Void, outcome: inout Outcome,
        _ make: @escaping @Sendable (RemoteSuitePlan.RemoteSuite) throws -> TestAction
    ) async -> [(RemoteSuitePlan.RemoteSuite, TestAction)] {
        let made = await DedicatedThread.run(named: "ribcage-remote-actions") {
            suites.map { remote in Result { try make(remote) } }
        }
        var actions: [(RemoteSuitePlan.RemoteSuite, TestAction)] = []
        for (remote, action) in zip(suites, made) {
            switch action {
            case .success(let action): actions.append((remote, action))
            case .failure(let error):
                note("warning: remote execution: \(error); \(remote.suite.testTarget) runs here")
                outcome.unanswered.append(remote.suite)
            }
        }
        return actions
    }

    /// The green result the action cache holds for `standIn`, read back; nil when it holds none,
    /// or one whose outputs the server no longer has.
    private func lookUp(
        _ standIn: TestAction, of suite: TestSuite, on client: RemoteExecutionClient
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
        return await finished(suite, execution: execution, reports: reports)
    }

    /// One suite's remote result, and where its output was written.
    private struct Finished: Sendable {
        var result: TestSuiteResult
        /// What the server answered, to keep under the stand-in's key.
        var actionResult: REAPI.ActionResult
        var log: URL
        /// What went wrong here while reading the result back (the log could not be written).
        var problem: String?
    }

    /// Executes `actions`, ``jobs`` at a time; once the server is gone, starts no more.
    private func execute(
        _ actions: [(suite: TestSuite, action: TestAction)], on client: RemoteExecutionClient
    ) async -> [String: Result<Finished, RemoteExecutionError>] {
        await withTaskGroup(of: (String, Result<Finished, RemoteExecutionError>).self) { group in
            var pending = actions[...]
            var finished: [String: Result<Finished, RemoteExecutionError>] = [:]
            var running = 0
            while true {
                while running < max(1, jobs), let (suite, action) = pending.popFirst() {
                    group.addTask {
                        (suite.testTarget, await self.outcome(of: action, of: suite, on: client))
                    }
                    running += 1
                }
                guard let (testTarget, result) = await group.next() else { break }
                running -= 1
                finished[testTarget] = result
                if case .failure(let error) = result, error.meansTheServerIsGone { pending = [] }
            }
            return finished
        }
    }

    /// ``execute(_:of:on:)``'s result or failure, as a value.
    private func outcome(of action: TestAction, of suite: TestSuite, on client: RemoteExecutionClient) async
        -> Result<Finished, RemoteExecutionError>
    {
        do {
            return .success(try await execute(action, of: suite, on: client))
        } catch {
            return .failure(error)
        }
    }

    private func execute(_ action: TestAction, of suite: TestSuite, on client: RemoteExecutionClient)
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
        return await finished(suite, execution: execution, reports: reports)
    }

    /// ``finished(_:execution:reports:log:packageRoot:timeout:)`` on a thread of its own: the
    /// reports of a large suite are megabytes.
    private func finished(
        _ suite: TestSuite, execution: RemoteExecutionClient.Execution, reports: TestAction.Reports
    ) async -> Finished {
        let log = reportsDirectory.appendingPathComponent("\(suite.testTarget)-remote.log")
        let (packageRoot, timeout) = (packageRoot, timeout)
        return await DedicatedThread.run(named: "ribcage-test-reports") {
            Self.finished(
                suite, execution: execution, reports: reports, log: log, packageRoot: packageRoot,
                timeout: timeout)
        }
    }

    /// A remote run's result, read as a local run's is: the xUnit report's cases, their issues
    /// from the event stream, and a runner failure for a run that ended without its report, that
    /// exited non-zero with no failed test, or that was stopped at its timeout.
    private static func finished(
        _ suite: TestSuite, execution: RemoteExecutionClient.Execution, reports: TestAction.Reports, log: URL,
        packageRoot: URL, timeout: Duration
    ) -> Finished {
        var problem: String?
        // Beside the output, the reports as they came, named as a local run's are.
        let stem = log.deletingPathExtension()
        let kept: [(URL, Data?)] = [
            (log, reports.standardOutput + reports.standardError),
            (stem.appendingPathExtension("xml"), reports.xunit),
            (URL(fileURLWithPath: stem.path + "-events.jsonl"), reports.events),
        ]
        for case (let file, let data?) in kept {
            do {
                try data.write(to: file)
            } catch {
                problem = "\(suite.testTarget)'s remote output could not be written to \(file.path): \(error)"
            }
        }
        var testCases: [TestCaseResult] = []
        var unreadable: String?
        if let xunit = reports.xunit {
            do {
                testCases = try XUnitReport(data: xunit, file: "\(suite.testTarget)'s remote xUnit report")
                    .testCases
            } catch {
                unreadable = "\(error)"
            }
        }
        let events = reports.events.map { String(decoding: $0, as: UTF8.self) } ?? ""
        TestIssues.attach(
            xctest: [:],
            swiftTesting: TestIssues.swiftTestingIssues(inEventStream: events, relativeTo: packageRoot),
            to: &testCases)
        let exitCode = execution.result.exitCode
        let anyFailed = testCases.contains { if case .failed = $0.outcome { true } else { false } }
        let runnerFailure: String? =
            if execution.actionTimedOut {
                "the remote run passed its \(timeout) timeout and was stopped; log: \(log.path)"
            } else if reports.xunit == nil || (unreadable != nil && exitCode != 0) {
                // Swift Testing writes its report as it goes: a crash leaves it cut short.
                "the remote run exited with code \(exitCode) without a complete xUnit report; log: \(log.path)"
            } else if let unreadable {
                "the remote run's xUnit report cannot be read (\(unreadable)); log: \(log.path)"
            } else if exitCode != 0 && !anyFailed {
                "the remote run exited with code \(exitCode) with no failed test; log: \(log.path)"
            } else {
                nil
            }
        let spans = SwiftTestingSpans.coveredSeconds(inEventStream: events)
        var result = TestSuiteResult(
            suite: suite, testCases: testCases,
            seconds: spans[suite.testTarget] ?? testCases.reduce(0) { $0 + ($1.duration ?? 0) },
            runnerFailure: runnerFailure)
        result.place = execution.cachedResult ? .remoteCache : .remote
        result.stoppedAtTimeout = execution.actionTimedOut
        return Finished(result: result, actionResult: execution.result, log: log, problem: problem)
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
