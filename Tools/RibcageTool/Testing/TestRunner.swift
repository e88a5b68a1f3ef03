import Foundation

/// Runs module test suites with `swift test` and reads their xUnit reports.
package struct TestRunner: Sendable {
    /// The package's root folder.
    package var packageRoot: URL
    /// Stream SwiftPM's and the tests' own output to standard error instead of capturing it.
    package var verbose: Bool
    /// Where xUnit reports and logs are written; a fresh temporary folder by default.
    package var reportsDirectory: URL

    /// Creates a runner for the package at `packageRoot`.
    package init(packageRoot: URL, verbose: Bool = false, reportsDirectory: URL? = nil) {
        self.packageRoot = packageRoot
        self.verbose = verbose
        self.reportsDirectory =
            reportsDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "ribcage-test-\(UUID().uuidString)", isDirectory: true)
    }

    /// Builds the package and all of its tests once, so each suite can then run with `--skip-build`.
    ///
    /// - Throws: ``RibcageError/buildFailed(details:)`` with the end of the build log.
    package func buildTests() async throws {
        let result = try await Shell.run(
            "swift", ["build", "--build-tests"], in: packageRoot,
            output: verbose ? .streamToStandardError : .capture)
        guard result.succeeded else {
            let log = (result.outputText + result.errorText).split(
                separator: "\n", omittingEmptySubsequences: false)
            throw RibcageError.buildFailed(details: log.suffix(80).joined(separator: "\n"))
        }
    }

    /// Runs one suite and collects what both test libraries reported.
    ///
    /// A run that exits non-zero without any failing test in its reports (a crash, a `fatalError`)
    /// is itself counted as a failure, so a dying test process can never look green.
    package func run(_ suite: ModuleTestSuite) async throws -> ModuleTestResult {
        try FileManager.default.createDirectory(at: reportsDirectory, withIntermediateDirectories: true)
        let xctestReport = reportsDirectory.appendingPathComponent("\(suite.testTarget).xml")
        let swiftTestingReport = reportsDirectory.appendingPathComponent(
            "\(suite.testTarget)-swift-testing.xml")
        let logFile = reportsDirectory.appendingPathComponent("\(suite.testTarget).log")
        for file in [xctestReport, swiftTestingReport] { try? FileManager.default.removeItem(at: file) }

        let clock = ContinuousClock()
        let start = clock.now
        let result = try await Shell.run(
            "swift",
            [
                "test", "--skip-build", "--parallel", "--filter", suite.filter,
                "--xunit-output", xctestReport.path,
            ],
            in: packageRoot,
            output: verbose ? .streamToStandardError : .capture)
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        try? (result.standardOutput + result.standardError).write(to: logFile)

        var testCases: [TestCaseResult] = []
        var problems: [String] = []
        for report in [xctestReport, swiftTestingReport] {
            guard FileManager.default.fileExists(atPath: report.path) else {
                problems.append("no report at \(report.lastPathComponent)")
                continue
            }
            do {
                testCases += try XUnitReport(contentsOf: report).testCases
            } catch {
                problems.append(String(describing: error))
            }
        }

        var runnerFailure: String?
        let anyFailed = testCases.contains { if case .failed = $0.outcome { true } else { false } }
        if !result.succeeded && !anyFailed {
            let detail = problems.isEmpty ? "" : " (\(problems.joined(separator: "; ")))"
            runnerFailure = "`swift test` \(result.terminationDescription)\(detail); log: \(logFile.path)"
        } else if testCases.isEmpty && !problems.isEmpty {
            runnerFailure = "no test results: \(problems.joined(separator: "; ")); log: \(logFile.path)"
        }
        return ModuleTestResult(
            suite: suite, testCases: testCases, seconds: seconds, runnerFailure: runnerFailure)
    }
}
