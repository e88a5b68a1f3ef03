import ArgumentParser
import Foundation

/// `ribcage test`: runs every module's test suite, or the named ones, and totals the results.
struct TestCommand: AsyncParsableCommand {
    /// The subcommand's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run module test suites and print one row per module.",
        discussion: """
            Builds the package's tests once, then runs each module's test target with
            `swift test --parallel --xunit-output` and reads the XCTest and Swift Testing xUnit
            reports. Prints a row per module and a closing line `N passed, N failed, N skipped`.
            Exits 1 when any test fails.
            """
    )

    /// Modules (or test targets) to test; all of them when empty.
    @Argument(help: "Modules to test, by module or test-target name. Default: all.")
    package var modules: [String] = []

    /// Lists modules and test targets instead of running anything.
    @Flag(help: "List each module and its test target, then exit.")
    package var list = false

    /// The package to work on.
    @Option(help: "The package folder (default: the current folder or the nearest one above it).")
    package var path: String?

    /// Skips the up-front build.
    @Flag(help: "Do not build first; use what the last build left.")
    package var skipBuild = false

    /// Streams SwiftPM's output.
    @Flag(help: "Stream the build's and the tests' own output to standard error.")
    package var verbose = false

    /// Runs only the suites a change affects.
    @Flag(
        help: "Run only the suites of modules changed since --base, and of every module that depends on them."
    )
    package var affected = false

    /// The git revision `--affected` compares against.
    @Option(
        help:
            "With --affected: the git revision to compare against (default: HEAD, i.e. uncommitted changes).")
    package var base = "HEAD"

    /// Runs one shard of the selected suites.
    @Option(help: "Run shard I of N (e.g. 2/4), balanced by the last run's durations, else by test counts.")
    package var shard: String?

    /// Keeps the xUnit reports in a chosen folder.
    @Option(help: "Write the xUnit reports and logs to this folder (default: a temporary folder).")
    package var reportsDirectory: String?

    /// Creates the command; ArgumentParser calls this.
    package init() {}

    /// Runs the command.
    func run() async throws {
        do {
            try await runReportingErrors()
        } catch let error as RibcageError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(error.exitCode)
        }
    }

    private func runReportingErrors() async throws {
        let root = try PackageLocator.root(fromPath: path)
        let package = try await PackageLoader.load(packageAt: root)
        let index = TestSuiteIndex(package: package)

        var suites = try index.suites(named: modules)
        var reasons: [ModuleTestSuite: String] = [:]
        if affected {
            let selection = AffectedSelection(
                package: package, index: index,
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
            suites = TestSharding.shard(
                suites, index: parts[0], of: parts[1],
                weights: TestSharding.weights(for: suites, package: package, root: root))
        }

        if list {
            if affected || shard != nil {
                for suite in suites { print("\(suite.module)  \(suite.testTarget)  \(reasons[suite] ?? "")") }
            } else {
                print(Self.listing(of: index), terminator: "")
            }
            return
        }
        if affected {
            for suite in suites {
                FileHandle.standardError.write(Data("\(suite.module): \(reasons[suite] ?? "")\n".utf8))
            }
            if suites.isEmpty {
                print("0 passed, 0 failed, 0 skipped")
                return
            }
        }
        let runner = TestRunner(
            packageRoot: root, verbose: verbose,
            reportsDirectory: reportsDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) })
        if !skipBuild {
            FileHandle.standardError.write(Data("Building tests…\n".utf8))
            try await runner.buildTests()
        }

        let table = TestReportTable(modules: suites.map(\.module))
        print(table.header)
        var results: [ModuleTestResult] = []
        for suite in suites {
            let result = try await runner.run(suite)
            results.append(result)
            print(table.row(result))
            fflush(nil)  // show each row as soon as its suite finishes
        }

        let failures = results.flatMap(\.failures)
        if !failures.isEmpty {
            print("\nFailures:")
            for failure in failures {
                print("  ✘ \(failure.test)")
                for line in failure.message.split(separator: "\n") { print("      \(line)") }
            }
        }
        Self.recordDurations(results, root: root)
        print(TestReportTable.closingLine(results))
        if !failures.isEmpty { throw ExitCode(1) }
    }

    /// Keeps each suite's seconds for `--shard` to balance by next time.
    private static func recordDurations(_ results: [ModuleTestResult], root: URL) {
        let file = TestSharding.durationsFile(in: root)
        var durations =
            (try? JSONDecoder().decode([String: Double].self, from: Data(contentsOf: file))) ?? [:]
        for result in results { durations[result.suite.testTarget] = result.seconds }
        try? FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? JSONEncoder().encode(durations).write(to: file)
    }

    /// The `--list` output: one line per module with its test target.
    static func listing(of index: TestSuiteIndex) -> String {
        let rows = index.suites.map { ($0.module, $0.testTarget) } + index.untestedModules.map { ($0, "—") }
        let width = max("Module".count, rows.map(\.0.count).max() ?? 0)
        var text = "Module".padding(toLength: width, withPad: " ", startingAt: 0) + "  Test target\n"
        for (module, target) in rows.sorted(by: { $0.0 < $1.0 }) {
            text += module.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(target)\n"
        }
        return text
    }
}
