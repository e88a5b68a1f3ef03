import ArgumentParser
import Foundation

/// `ribcage test`: runs every module's test suite, or the named ones, and totals the results.
public struct TestCommand: ParsableCommand {
    /// The subcommand's name and help.
    public static let configuration = CommandConfiguration(
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
    public var modules: [String] = []

    /// Lists modules and test targets instead of running anything.
    @Flag(help: "List each module and its test target, then exit.")
    public var list = false

    /// The package to work on.
    @Option(help: "The package folder (default: the current folder or the nearest one above it).")
    public var path: String?

    /// Skips the up-front build.
    @Flag(help: "Do not build first; use what the last build left.")
    public var skipBuild = false

    /// Streams SwiftPM's output.
    @Flag(help: "Stream the build's and the tests' own output to standard error.")
    public var verbose = false

    /// Keeps the xUnit reports in a chosen folder.
    @Option(help: "Write the xUnit reports and logs to this folder (default: a temporary folder).")
    public var reportsDirectory: String?

    /// Creates the command; ArgumentParser calls this.
    public init() {}

    /// Runs the command.
    public func run() throws {
        do {
            try runReportingErrors()
        } catch let error as RibcageError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(error.exitCode)
        }
    }

    private func runReportingErrors() throws {
        let root = try PackageLocator.root(fromPath: path)
        let index = TestSuiteIndex(package: try DescribedPackage.describe(packageAt: root))

        if list {
            print(Self.listing(of: index), terminator: "")
            return
        }

        let suites = try index.suites(named: modules)
        let runner = TestRunner(
            packageRoot: root, verbose: verbose,
            reportsDirectory: reportsDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) })
        if !skipBuild {
            FileHandle.standardError.write(Data("Building tests…\n".utf8))
            try runner.buildTests()
        }

        let table = TestReportTable(modules: suites.map(\.module))
        print(table.header)
        var results: [ModuleTestResult] = []
        for suite in suites {
            let result = try runner.run(suite)
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
        print(TestReportTable.closingLine(results))
        if !failures.isEmpty { throw ExitCode(1) }
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
