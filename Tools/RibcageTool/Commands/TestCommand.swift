import ArgumentParser
import Foundation

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

    @OptionGroup(title: "Test cache") var cacheOptions: TestCacheOptions

    func run() async throws {
        try await RibcageError.reported { try await runTests() }
    }

    private func runTests() async throws {
        let root = try package.root()
        let described = try await PackageLoader.load(packageAt: root)
        let index = TestSuiteIndex(package: described)
        var suites = try index.suites(named: modules)
        var reasons: [TestSuite: String] = [:]
        if affected {
            let selection = AffectedSelection(
                package: described, index: index,
                changedFiles: try await AffectedSelection.changedFiles(in: root, since: base))
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
            try await cacheOptions.explain(module, index: index, root: root, package: described)
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
        let cacheRun = try await cacheOptions.start(root: root, package: described, suites: &suites)
        if suites.isEmpty, let cacheRun {
            cacheRun.printAllCached()
            return
        }
        let sandboxes = try await cacheOptions.sandboxes(
            for: suites, root: root, package: described, cacheRun: cacheRun)
        let runner = TestRunner(
            packageRoot: root, verbose: verbose,
            reportsDirectory: reportsDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) })
        if !skipBuild {
            StandardError.write("Building tests…\n")
            try await runner.buildTests()
        }
        StandardError.write("Running \(suites.count) test target\(suites.count == 1 ? "" : "s")…\n")
        // With the cache on, each suite runs alone under strace, so what it reads is known.
        var traced = false
        if cacheRun != nil {
            traced = await TestRunner.canTraceInputs()
            if !traced {
                StandardError.write(
                    "warning: test cache: strace is missing or may not trace here, so this run stores "
                        + "no result (install strace; in a container, allow ptrace)\n")
            }
        }
        let run =
            traced || sandboxes != nil
            ? try await runner.runEachAlone(
                suites,
                weights: try await TestSharding.weightsOffThePool(
                    for: suites, package: described, root: root),
                tracing: traced, untraced: cacheRun?.untraceable ?? [], sandboxes: sandboxes ?? [:])
            : try await runner.run(suites, everything: suites.count == index.suites.count)

        let table = TestReportTable(
            testTargets: suites.map(\.testTarget) + (cacheRun?.cachedTestTargets ?? []))
        print(table.header)
        for result in run.results { print(table.row(result)) }
        for row in cacheRun?.rows(alongside: suites.map(\.testTarget)) ?? [] { print(row) }
        let failures = run.results.flatMap(\.failures)
        if !failures.isEmpty {
            print("\nFailures:")
            for failure in failures {
                print("  ✘ \(failure.test)")
                let lines =
                    failure.issues.isEmpty
                    ? failure.message.split(separator: "\n").map(String.init)
                    : failure.issues.map(\.description)
                for line in lines { print("      \(line)") }
            }
            print("Full log: \(run.logs.map(\.path).joined(separator: ", "))")
        }
        Self.recordDurations(run.results, root: root)
        await cacheRun?.record(run)
        print(TestReportTable.closingLine(run.results) + (cacheRun?.closingSuffix ?? ""))
        if !failures.isEmpty { throw ExitCode(1) }
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
