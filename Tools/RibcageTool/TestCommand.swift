import ArgumentParser
import BlockingWork
import Foundation
import RibcageGraph
import RibcagePackage
import RibcageTesting

/// `ribcage test`: runs the test targets of the named modules, or all, and totals the results.
struct TestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run test targets and print one row per test target.",
        discussion: """
            A test target tests the modules it depends on, as `swift package describe` reports \
            them: `ribcage test Core` runs every test target that depends on Core, and a test \
            target's own name runs just it.

            Builds the package's tests once, then runs the selected test targets in one \
            `swift test --parallel` and reads the XCTest and Swift Testing reports. Prints a row \
            per test target, every failure with its file and line, the path of the full log, and \
            a closing line `N passed, N failed, N skipped`. Exits 1 when any test fails; a test \
            process that crashes counts as a failure. With the cache on, each test target runs \
            in a `swift test` of its own under strace, which records what it reads; with \
            --sandbox, in a sandbox that shows it only its declared and recorded inputs.

            `--retry N` runs the failed tests again; one that then passes is flaky (`ribcage \
            flaky` lists them). Project.swift.md's Quarantine table mutes tests (they run, but \
            their failures do not count) or skips them, in every run.
            """
    )

    @Argument(
        help: "Modules or test targets to test (default: all).", completion: .custom(Completions.modules))
    var modules: [String] = []

    @Flag(help: "List the selected test targets and the modules each tests, then exit.")
    var list = false

    @OptionGroup var package: PackageOptions

    @Flag(help: "Do not build first; use what the last build left.")
    var skipBuild = false

    @Flag(help: "Stream the build's and the tests' own output to standard error.")
    var verbose = false

    @Flag(
        help:
            "Run only the test targets that a change since --base affects, directly or through a dependency.")
    var affected = false

    @Option(
        help:
            "With --affected: the git revision to compare against (default: HEAD, i.e. uncommitted changes).")
    var base = "HEAD"

    @Option(help: "Run shard I of N (e.g. 2/4), balanced by the last run's durations, else by test counts.")
    var shard: String?

    @Option(help: "Write the xUnit reports and logs to this folder (default: a temporary folder).")
    var reportsDirectory: String?

    @Option(
        help: """
            Run the tests that failed again, up to N times, in one `swift test --filter` a round. A test \
            that then passes is flaky: its row and the closing line say so, and `ribcage flaky` lists it.
            """)
    var retry: Int = 0

    @Flag(
        help:
            "Fail the run when a test was flaky (by default a run whose failures all passed on a retry passes)."
    )
    var noFlaky = false

    @Flag(help: "Ignore Project.swift.md's Quarantine table: run every test and count every failure.")
    var noQuarantine = false

    @Option(
        help: """
            Also write one JUnit XML report of the run to this file: a <testsuite> per test target, \
            Surefire's <flakyFailure> and <rerunFailure> for retried tests.
            """)
    var junitOutput: String?

    @OptionGroup(title: "Test cache") var cacheOptions: TestCacheOptions

    @OptionGroup(title: "Remote execution") var remoteOptions: RemoteExecutionOptions

    func validate() throws {
        guard retry >= 0 else { throw ValidationError("--retry takes 0 or more rounds.") }
    }

    func run() async throws {
        try await RibcageError.reported { try await runTests() }
    }

    private func runTests() async throws {
        let root = try package.root()
        let described = try await PackageLoader.load(packageAt: root, note: StandardError.writeLine)
        let index = TestSuiteIndex(package: described)
        var suites = try index.suites(named: modules)
        var reasons: [TestSuite: String] = [:]
        if affected {
            let selection = AffectedSelection(
                package: described, index: index,
                changedFiles: try await ChangeImpact.changedFiles(in: root, since: base))
            let chosen = Set(selection.choices.map(\.suite))
            suites = suites.filter { chosen.contains($0) }
            for choice in selection.choices { reasons[choice.suite] = choice.reason }
        }
        if let shard {
            let parts = shard.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else {
                throw ValidationError("--shard takes I/N with 1 ≤ I ≤ N, e.g. 2/4; got '\(shard)'.")
            }
            let weights = try await TestSharding.weightsOffThePool(
                for: suites, package: described, root: root)
            suites = TestSharding.shard(suites, index: parts[0], of: parts[1], weights: weights)
        }

        if let module = cacheOptions.explainCache {
            try await cacheOptions.explain(
                module, index: index, root: root, package: described, besides: remoteOptions)
            return
        }
        if list {
            print(
                Self.listing(
                    of: suites, reasons: reasons, untested: modules.isEmpty ? index.untestedModules : []),
                terminator: "")
            return
        }
        if affected {
            for suite in suites { StandardError.write("\(suite.testTarget): \(reasons[suite] ?? "")\n") }
        }
        if suites.isEmpty {
            print("0 passed, 0 failed, 0 skipped")
            return
        }
        let started = Date()
        let quarantine =
            noQuarantine
            ? Quarantine()
            : try await DedicatedThread.run(named: "ribcage-quarantine") {
                try Quarantine.load(packageAt: root)
            }
        // Never answered from the cache: its row fails below, whatever a run of it says.
        let unselectable = try await UnselectableTests.find(in: suites, package: described, root: root)
        var lookedUp = suites.filter { unselectable[$0.testTarget] == nil }
        let cacheRun = try await cacheOptions.start(
            root: root, package: described, suites: &lookedUp, besides: remoteOptions)
        let toRun = Set(lookedUp)
        suites = suites.filter { toRun.contains($0) || unselectable[$0.testTarget] != nil }
        if suites.isEmpty, let cacheRun {
            cacheRun.printAllCached()
            try await writeJUnit([], started: started)
            return
        }
        let skipped = quarantine.skipped(in: suites.map(\.testTarget))
        let sandboxes = try await cacheOptions.sandboxes(
            for: suites, root: root, package: described, cacheRun: cacheRun)
        let runner = TestRunner(
            packageRoot: root, verbose: verbose,
            reportsDirectory: reportsDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) },
            skipPattern: skipped.isEmpty ? nil : TestCaseFilter.pattern(for: skipped.map(\.test)))
        // With a server: the keys before the build, so a result is kept under a key only when
        // the bundle was built from the sources it names.
        var remoteSession: TestCacheSession?
        var keysBeforeBuild: [String: String] = [:]
        if remoteOptions.remoteExecutor != nil {
            if let cacheRun {
                remoteSession = cacheRun.session
            } else {
                remoteSession = try await cacheOptions.session(root: root, package: described)
            }
            if !skipBuild, let remoteSession {
                keysBeforeBuild = try await remoteSession.inputs.keysOffThePool(for: suites.map(\.testTarget))
                    .mapValues(\.hash)
            }
        }
        if !skipBuild {
            StandardError.write("Building tests…\n")
            try await runner.buildTests()
        }
        var remote: RemoteExecutionOptions.Prepared?
        if let remoteSession {
            remote = try await remoteOptions.prepare(
                suites, root: root, package: described, session: remoteSession,
                keysBeforeBuild: keysBeforeBuild,
                runner: runner)
        }
        var run: TestRunner.Run
        if let remote {
            run = try await runBesideTheServer(
                suites, remote: remote, runner: runner, cacheRun: cacheRun, sandboxes: sandboxes,
                described: described, root: root)
        } else {
            run = try await runLocally(
                suites, everything: suites.count == index.suites.count, runner: runner, cacheRun: cacheRun,
                sandboxes: sandboxes, described: described, root: root)
        }
        run.results = quarantine.apply(to: run.results)
        if sandboxes != nil, retry > 0 {
            // A retry runs outside the sandbox, where an undeclared read succeeds: it would call
            // the sandbox's finding flaky.
            StandardError.write(
                "note: --retry is ignored with --sandbox: a sandboxed failure is not retried\n")
        } else {
            run = try await runner.retryingFailures(
                of: run, rounds: retry, note: StandardError.writeLine)
        }

        for index in run.results.indices {
            guard let why = unselectable[run.results[index].suite.testTarget] else { continue }
            run.results[index].runnerFailure = [run.results[index].runnerFailure, why].compactMap { $0 }
                .joined(separator: "; ")
        }
        let table = TestReportTable(
            testTargets: suites.map(\.testTarget) + (cacheRun?.cachedTestTargets ?? []))
        print(table.header)
        for result in run.results { print(table.row(result)) }
        for row in cacheRun?.rows(alongside: suites.map(\.testTarget)) ?? [] { print(row) }
        let failures = run.results.flatMap(\.failures)
        Self.printList("Failures:", failures, mark: "✘")
        Self.printList(
            "Flaky (failed, then passed on a retry):", run.results.flatMap(\.flakyTests), mark: "~")
        Self.printList(
            "Muted failures (quarantined; they do not fail the run):", run.results.flatMap(\.mutedFailures),
            mark: "-")
        if !failures.isEmpty || run.results.contains(where: { $0.flaky + $0.muted > 0 }) {
            print("Full log: \(run.logs.map(\.path).joined(separator: ", "))")
        }
        Self.recordDurations(run.results, root: root)
        let flakyAcrossRuns = await cacheRun?.record(run) ?? []
        await recordFlaky(
            run.results, acrossRuns: flakyAcrossRuns, root: root,
            keys: cacheRun?.keys.mapValues(\.hash) ?? [:])
        try await writeJUnit(run.results, started: started)
        print(TestReportTable.closingLine(run.results) + (cacheRun?.closingSuffix ?? ""))
        if let failedTogether = run.failedTogether {
            StandardError.write("error: the run failed outside any one test target: \(failedTogether)\n")
            throw ExitCode(1)
        }
        if !failures.isEmpty { throw ExitCode(1) }
        if noFlaky, run.results.contains(where: { $0.flaky > 0 }) {
            StandardError.write("error: tests were flaky, and --no-flaky fails the run on them\n")
            throw ExitCode(1)
        }
    }

    /// Runs the suites `remote` sends to the server there, and the others here meanwhile; then
    /// here the ones the server did not answer. One result per suite, in the order of `suites`.
    private func runBesideTheServer(
        _ suites: [TestSuite], remote: RemoteExecutionOptions.Prepared, runner: TestRunner,
        cacheRun: TestCacheRun?,
        sandboxes: [String: SuiteSandbox]?, described: DescribedPackage, root: URL
    ) async throws -> TestRunner.Run {
        let sent = remote.plan.remote
        if !sent.isEmpty {
            let actions = sent.reduce(0) { $0 + $1.shards.count }
            let shards = actions == sent.count ? "" : " in \(actions) actions"
            StandardError.write(
                "Running \(sent.count) test target\(sent.count == 1 ? "" : "s")\(shards) on \(remote.runner.endpoint)…\n"
            )
        }
        async let answered = remote.runner.run(sent, note: StandardError.writeLine)
        var run = try await runLocally(
            remote.plan.local.map(\.suite), everything: false, runner: runner, cacheRun: cacheRun,
            sandboxes: sandboxes, described: described, root: root)
        let outcome = await answered
        // A suite red on the worker runs here too, and this run's result stands: the worker
        // sees only the action's inputs and its image, and a file or a tool missing there
        // fails a test that passes here. A run stopped at --remote-timeout is that limit's
        // verdict, and stands.
        let redRemotely = outcome.results.filter { $0.failed > 0 && !$0.stoppedAtTimeout }
        for result in redRemotely {
            StandardError.write(
                "\(result.suite.testTarget) failed remotely (\(result.failures.first?.test ?? "")), so it runs here too\n"
            )
        }
        var fallback = try await runLocally(
            outcome.unanswered + redRemotely.map(\.suite), everything: false, runner: runner,
            cacheRun: cacheRun,
            sandboxes: sandboxes, described: described, root: root)
        let rerun = Set(redRemotely.map(\.suite.testTarget))
        for index in fallback.results.indices where rerun.contains(fallback.results[index].suite.testTarget) {
            let result = fallback.results[index]
            fallback.results[index].place = .hereAfterRemoteFailure
            if result.failed == 0 {
                StandardError.write(
                    "\(result.suite.testTarget) failed remotely and passed here: its result is this run's. Does its "
                        + "action lack a file it reads (`ribcage test --cache` records what a suite reads, and "
                        + "later actions hold it), or the worker image a program it starts?\n")
            }
        }
        run.append(fallback)
        run.logs = outcome.logs + run.logs
        let byTarget = Dictionary(
            (run.results + outcome.results).map { ($0.suite.testTarget, $0) },
            uniquingKeysWith: { first, _ in first })
        // Every suite is planned to run somewhere; one that came back from nowhere fails the
        // run rather than drop out of the table.
        run.results = suites.map { suite in
            byTarget[suite.testTarget]
                ?? TestSuiteResult(
                    suite: suite, testCases: [], seconds: 0,
                    runnerFailure: "no result came back for it, from the server or from here")
        }
        return run
    }

    /// Runs `suites` here: each alone under strace when the cache is on (so what it reads is
    /// known) or in its sandbox, else together in one `swift test`.
    private func runLocally(
        _ suites: [TestSuite], everything: Bool, runner: TestRunner, cacheRun: TestCacheRun?,
        sandboxes: [String: SuiteSandbox]?, described: DescribedPackage, root: URL
    ) async throws -> TestRunner.Run {
        guard !suites.isEmpty else { return TestRunner.Run(results: [], logs: []) }
        StandardError.write("Running \(suites.count) test target\(suites.count == 1 ? "" : "s")…\n")
        // With the cache on, each suite runs alone under strace, so what it reads is known.
        var traced = false
        if cacheRun != nil {
            traced = try await TestRunner.canTraceInputs()
            if !traced {
                StandardError.write(
                    "warning: test cache: strace is missing or may not trace here, so this run stores "
                        + "no result (install strace; in a container, allow ptrace)\n")
            }
        }
        return traced || sandboxes != nil
            ? try await runner.runEachAlone(
                suites,
                weights: try await TestSharding.weightsOffThePool(
                    for: suites, package: described, root: root),
                tracing: traced, untraced: cacheRun?.untraceable ?? [], sandboxes: sandboxes ?? [:],
                note: StandardError.writeLine)
            : try await runner.run(suites, everything: everything)
    }

    private static func printList(_ title: String, _ failures: [TestSuiteResult.Failure], mark: String) {
        guard !failures.isEmpty else { return }
        print("\n" + title)
        for failure in failures {
            print("  \(mark) \(failure.test)")
            let lines =
                failure.issues.isEmpty
                ? failure.message.split(separator: "\n").map(String.init)
                : failure.issues.map(\.description)
            for line in lines { print("      \(line)") }
        }
    }

    /// Adds the tests found flaky, by the retries or against a run the cache kept with the same
    /// key, to the package's flaky log, and says which the cache found; a log that cannot be
    /// written is a warning, since the run's own verdict stands without it.
    private func recordFlaky(
        _ results: [TestSuiteResult], acrossRuns: [FlakyEvent], root: URL, keys: [String: String]
    ) async {
        for event in acrossRuns {
            StandardError.write(
                "\(event.test) is flaky: it passed and failed with the same inputs (on \(event.hosts.joined(separator: " and ")))\n"
            )
        }
        guard acrossRuns.count + results.reduce(0, { $0 + $1.flaky }) > 0 else { return }
        let log = FlakyLog(packageAt: root)
        let events =
            FlakyLog.events(
                retriedIn: results, keys: keys,
                commit: await TestCacheSession.commit(at: root) { StandardError.write("\($0)\n") },
                host: ProcessInfo.processInfo.hostName, date: Date()) + acrossRuns
        do {
            try await log.append(events)
        } catch {
            StandardError.write("warning: could not add the flaky tests to \(log.file.path): \(error)\n")
        }
    }

    private func writeJUnit(_ results: [TestSuiteResult], started: Date) async throws {
        guard let junitOutput else { return }
        try await JUnitReport(
            results: results, timestamp: started, hostname: ProcessInfo.processInfo.hostName
        )
        .write(to: URL(fileURLWithPath: junitOutput))
    }

    /// Keeps each suite's seconds for `--shard` to balance by next time. A file that cannot be
    /// written only costs the balance of the next shard, so the run goes on.
    private static func recordDurations(_ results: [TestSuiteResult], root: URL) {
        let file = TestSharding.durationsFile(in: root)
        var durations =
            (try? JSONDecoder().decode([String: Double].self, from: Data(contentsOf: file))) ?? [:]
        for result in results { durations[result.suite.testTarget] = result.seconds }
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try JSONEncoder().encode(durations).write(to: file)
        } catch {
            StandardError.write("warning: could not record test durations in \(file.path): \(error)\n")
        }
    }

    /// The `--list` output: each test target with the modules it tests (and why it was chosen),
    /// then the modules no test target tests.
    static func listing(of suites: [TestSuite], reasons: [TestSuite: String], untested: [String]) -> String {
        let width = max("Test target".count, suites.map(\.testTarget.count).max() ?? 0)
        var text = "Test target".padding(toLength: width, withPad: " ", startingAt: 0) + "  Tests\n"
        for suite in suites {
            let because = reasons[suite].map { "  (\($0))" } ?? ""
            text +=
                suite.testTarget.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + (suite.modules.isEmpty ? "—" : suite.modules.joined(separator: ", ")) + because + "\n"
        }
        if !untested.isEmpty {
            text += "\nNo test target depends on: \(untested.joined(separator: ", "))\n"
        }
        return text
    }
}
