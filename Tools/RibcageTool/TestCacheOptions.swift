import ArgumentParser
import BlockingWork
import Foundation
import RibcageLint
import RibcagePackage
import RibcageTesting

/// `ribcage test`'s cache options, and what the command does with them.
struct TestCacheOptions: ParsableArguments {
    @Flag(
        help: """
            Skip a test target whose inputs, and the files and programs its last green run was seen to \
            read, are byte for byte as they were (local cache under $XDG_CACHE_HOME/ribcage/test-cache; \
            needs strace to store results).
            """)
    var cache = false

    @Option(
        help: """
            Also share results through this cache: a Bazel HTTP remote cache (http(s)://…: GET/PUT of \
            /ac/<key> and /cas/<sha256>; bazel-remote, nginx with WebDAV PUT…) or a Remote Execution API \
            server's action cache and CAS (grpc://HOST:PORT or unix:PATH; buildbox-casd, BuildGrid…). \
            Implies --cache. Default: $RIBCAGE_CACHE_URL; else, with --cache, the --remote-executor \
            server. '' shares nothing, not even through the executor.
            """)
    var cacheURL: String?

    @Option(help: "With a shared cache: the longest a request to it may take, in seconds.")
    var cacheTimeout: Double = 10

    @Flag(
        help: """
            Run each test target in a bubblewrap sandbox where, of the package, only its declared inputs \
            and what its last cached run read are visible, so a test that reads anything else fails.
            """)
    var sandbox = false

    @Option(
        help:
            "Print the cache key's parts for MODULE's test targets and what changed since the last entry, then exit."
    )
    var explainCache: String?

    /// The shared cache's URL: the option, else `RIBCAGE_CACHE_URL` (where CI keeps a secret).
    var sharedURL: String? {
        cacheURL
            ?? ProcessInfo.processInfo.environment["RIBCAGE_CACHE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func validate() throws {
        guard cacheTimeout > 0, cacheTimeout.isFinite else {
            throw ValidationError("--cache-timeout takes a positive number of seconds.")
        }
    }

    /// Where results are shared: `--cache-url` (or `RIBCAGE_CACHE_URL`); else, with `--cache`,
    /// the `--remote-executor` server's own action cache and CAS, as Bazel's `--remote_executor`
    /// is its `--remote_cache` too; nowhere for `--cache-url ''`. `--remote-instance` names the
    /// instance on either server, as Bazel's `--remote_instance_name` does.
    func sharedStore(besides remote: RemoteExecutionOptions?) -> (address: String, instanceName: String)? {
        if cacheURL == "" { return nil }
        if let sharedURL { return (sharedURL, remote?.remoteInstance ?? "") }
        guard cache, let remote, let executor = remote.remoteExecutor else { return nil }
        return (executor, remote.remoteInstance)
    }

    /// The run's cache, sharing results as ``sharedStore(besides:)`` says.
    func session(root: URL, package: DescribedPackage, besides remote: RemoteExecutionOptions? = nil)
        async throws -> TestCacheSession
    {
        let shared = sharedStore(besides: remote)
        do {
            return try await TestCacheSession.open(
                root: root, package: package, cacheURL: shared?.address,
                instanceName: shared?.instanceName ?? "",
                timeout: .milliseconds(Int(cacheTimeout * 1000)), warn: StandardError.writeLine)
        } catch let error as TestCacheError {
            throw ValidationError(error.description)
        }
    }

    /// Looks `suites` up when the cache is on, and removes the cached ones from `suites`.
    ///
    /// - Returns: The run's cache, or nil when `--cache` is off. A cache that cannot be opened
    ///   (an unreadable file) is a warning, and the run goes on without it.
    func start(
        root: URL, package: DescribedPackage, suites: inout [TestSuite],
        besides remote: RemoteExecutionOptions?
    ) async throws -> TestCacheRun? {
        guard cache || sharedURL != nil else { return nil }
        let session: TestCacheSession
        do {
            session = try await self.session(root: root, package: package, besides: remote)
        } catch let error as ValidationError {
            throw error
        } catch {
            StandardError.write(
                "warning: test cache: cannot compute the keys, so every suite runs: \(error)\n")
            return nil
        }
        let (keys, hits) = try await session.lookUp(suites.map(\.testTarget))
        let inputs = session.inputs
        let folders = try Set(suites.flatMap { try inputs.closureFolders(of: $0.testTarget) })
        let undeclared = await DedicatedThread.run(named: "ribcage-test-cache-keys") {
            UndeclaredVariables.findings(
                inFolders: Array(folders), root: inputs.root, declared: inputs.declaredVariables)
        }
        for finding in undeclared.findings { StandardError.write(finding.warning + "\n") }
        for reason in undeclared.unscanned {
            StandardError.write(
                "warning: test cache: could not look for environment variables read in \(reason)\n")
        }
        let cached = suites.filter { hits[$0.testTarget] != nil }
        suites.removeAll { hits[$0.testTarget] != nil }
        let memory = UntraceableSuites(cacheFolder: session.cache.local.folder, package: package.name)
        let selected = Set(suites.map(\.testTarget))
        let declared = try await DedicatedThread.run(named: "ribcage-test-cache-keys") {
            try UntraceableSuites.declared(packageAt: root)
        }.intersection(selected)
        var remembered: Set<String> = []
        do {
            remembered = try await memory.known().intersection(selected).subtracting(declared)
        } catch {
            StandardError.write(
                "warning: test cache: cannot read \(memory.folder.path), so the suites it lists run traced: \(error)\n"
            )
        }
        for testTarget in declared.sorted() {
            StandardError.write(UntraceableSuites.declaredNote(testTarget) + "\n")
        }
        for testTarget in remembered.sorted() { StandardError.write(memory.note(testTarget) + "\n") }
        let untraceable = declared.union(remembered)
        return TestCacheRun(
            session: session, keys: keys, cached: cached.compactMap { hits[$0.testTarget] },
            untraceable: untraceable, memory: memory)
    }

    /// With `--sandbox`, each suite's ``SuiteSandbox``, from its key's inputs and the recorded
    /// inputs of its last entry on this machine; nil without it.
    ///
    /// - Throws: ``RibcageError/commandNotFound(_:hint:)`` when `bwrap` is missing or may not
    ///   make namespaces here: a run asked to be sandboxed must not quietly run without it.
    func sandboxes(for suites: [TestSuite], root: URL, package: DescribedPackage, cacheRun: TestCacheRun?)
        async throws -> [String: SuiteSandbox]?
    {
        guard sandbox else { return nil }
        if let reason = try await SuiteSandbox.unavailability() {
            throw RibcageError.commandNotFound(
                "bwrap",
                hint: "\(reason). --sandbox needs bubblewrap (Tools/install-system-packages) and leave to "
                    + "make namespaces (in a container, allow unshare)")
        }
        let session: TestCacheSession
        if let cacheRun {
            session = cacheRun.session
        } else {
            session = try await self.session(root: root, package: package)
        }
        var sandboxes: [String: SuiteSandbox] = [:]
        for suite in suites {
            let recorded: [RecordedInput]
            do {
                recorded = try await session.cache.latestEntry(of: suite.testTarget)?.recordedInputs ?? []
            } catch {
                StandardError.write(
                    "warning: test cache: cannot read \(suite.testTarget)'s last entry, so its sandbox shows "
                        + "its declared inputs only: \(error)\n")
                recorded = []
            }
            let inputs = session.inputs
            let sandbox = try await DedicatedThread.run(named: "ribcage-test-cache-keys") {
                try SuiteSandbox(testTarget: suite.testTarget, inputs: inputs, recorded: recorded)
            }
            for warning in sandbox.warnings { StandardError.write(warning + "\n") }
            sandboxes[suite.testTarget] = sandbox
        }
        return sandboxes
    }

    /// Prints `--explain-cache` for each test target that tests `module`.
    func explain(
        _ module: String, index: TestSuiteIndex, root: URL, package: DescribedPackage,
        besides remote: RemoteExecutionOptions?
    ) async throws {
        let suites = try index.suites(named: [module])
        let session = try await self.session(root: root, package: package, besides: remote)
        let keys = try await session.inputs.keysOffThePool(for: suites.map(\.testTarget), withParts: true)
        for suite in suites {
            guard let key = keys[suite.testTarget] else { continue }
            let hit = await session.cache.lookUp(key)?.entry
            let latest = try await session.cache.latestEntry(of: suite.testTarget, withParts: true)
            let shown = hit ?? latest
            let inputs = session.inputs
            let changed = await DedicatedThread.run(named: "ribcage-test-cache-keys") {
                shown?.changedInputs(in: inputs)
            }
            print(CacheExplanation(key: key, hit: hit, latest: latest, changedInputs: changed).text)
        }
    }
}

/// The cache's part in one `ribcage test` run: the suites it skipped, and the recording of the
/// green ones that ran.
struct TestCacheRun {
    let session: TestCacheSession
    /// The keys of every selected suite, computed before anything was built or run.
    let keys: [String: TestCacheKey]
    /// The entries of the suites not run.
    let cached: [TestCacheEntry]
    /// The suites to run without the trace from the start (``UntraceableSuites``).
    let untraceable: Set<String>
    /// Where those are remembered.
    let memory: UntraceableSuites

    /// Their test targets, for the table's width.
    var cachedTestTargets: [String] { cached.map(\.testTarget) }

    /// A row per cached suite: `FooTests  cached: green at abc1234 on ci-7, 2026-11-23 23:58 UTC`.
    func rows(alongside ran: [String]) -> [String] {
        let width = max("Test target".count, (ran + cachedTestTargets).map(\.count).max() ?? 0)
        return cached.map {
            $0.testTarget.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.summary
        }
    }

    /// `, 3 suites from cache`, after the closing line of what ran.
    var closingSuffix: String {
        ", \(cached.count) suite\(cached.count == 1 ? "" : "s") from cache"
    }

    /// Stores the green results with what each was traced reading (`run.inputTraces`, by test
    /// target), keeps the red ones as evidence of flakiness, and remembers the suites that
    /// passed only untraced. A suite is green when every test passed at its first attempt or was
    /// skipped by itself, and its run ended by itself: a failure (muted or not), a flaky test, a
    /// test the quarantine skipped, a crash, a timeout or a cut-short run is never stored, nor is
    /// a run here with no trace.
    ///
    /// A suite that ran on a worker (or came from a stand-in in the server's action cache) is
    /// neither: a worker sees only its action's inputs, so its green does not stand for a run
    /// here, which sees the whole package (Decision 45); its result stays under its stand-in.
    ///
    /// - Returns: The tests found flaky against a run the cache kept with the same key.
    @discardableResult
    func record(_ run: TestRunner.Run) async -> [FlakyEvent] {
        do {
            try await memory.remember(run.passedOnlyUntraced)
        } catch {
            StandardError.write("warning: test cache: cannot write \(memory.folder.path): \(error)\n")
        }
        let results = run.results
        let inputTraces = run.inputTraces
        let inputs = session.inputs
        let selection = RecordedInputSelection(
            root: inputs.root, localDependencies: inputs.localDependencies,
            toolchain: Toolchain.installFolder(), package: inputs.package)
        var outcomes: [TestCacheSession.Outcome] = []
        for result in results where result.place != .remote && result.place != .remoteCache {
            // A flaky or muted failure, or a test the quarantine kept from running, is not green:
            // the entry would answer for a suite that did not pass as it stands.
            let isGreen = result.isCleanlyGreen
            var recorded: [RecordedInput]?
            if isGreen, let trace = inputTraces[result.suite.testTarget] {
                recorded = await DedicatedThread.run(named: "ribcage-test-cache-keys") {
                    selection.inputs(of: trace, in: inputs)
                }
            }
            // Each test as its first attempt ended: a red run is evidence as it first ended.
            let cases = result.testCases.map { testCase in
                TestCacheEntry.CaseOutcome(
                    test: testCase.id, outcome: testCase.firstOutcome, seconds: testCase.duration)
            }
            outcomes.append(
                TestCacheSession.Outcome(
                    testTarget: result.suite.testTarget, isGreen: isGreen, passed: result.passed,
                    skipped: result.skipped, seconds: result.seconds, recordedInputs: recorded,
                    failed: cases.count { $0.outcome == .failed }, cases: cases,
                    isEvidence: result.runnerFailure == nil && !result.testCases.isEmpty))
        }
        return await session.record(outcomes, keysBeforeRun: keys).flaky
    }

    /// The output of a run where every selected suite came from the cache.
    func printAllCached() {
        print(TestReportTable(testTargets: cachedTestTargets).header)
        for row in rows(alongside: []) { print(row) }
        print("0 passed, 0 failed, 0 skipped" + closingSuffix)
    }
}

extension TestCaseResult {
    /// How its first attempt ended, before any retry.
    fileprivate var firstOutcome: TestCacheEntry.CaseOutcome.Outcome {
        guard failedAttempts.isEmpty else { return .failed }
        switch outcome {
        case .passed: return .passed
        case .failed: return .failed
        case .skipped: return .skipped
        }
    }
}
