import BlockingWork
import Foundation
import RibcagePackage

/// Runs test targets with `swift test` and reads what both test libraries reported.
///
/// The selected targets run in one `swift test --parallel` process, so SwiftPM reads the build
/// graph once and XCTest spreads every target's tests over its workers. Results are split per
/// test target afterwards; failures get their file and line from the log (XCTest) and the event
/// stream (Swift Testing). If that run ends without reports — a crash — each target runs again
/// on its own, so the crash is pinned on the target that has it.
package struct TestRunner: Sendable {
    /// The package's root folder.
    package var packageRoot: URL
    /// Stream SwiftPM's and the tests' own output to standard error as well as to the log.
    package var verbose: Bool
    /// Where xUnit reports, the event stream and logs are written; a fresh temporary folder by
    /// default.
    package var reportsDirectory: URL
    /// Tests never to start, as a `swift test --skip` pattern (the quarantine's skipped tests):
    /// every `swift test` the runner starts gets it.
    package var skipPattern: String?

    /// Creates a runner for the package at `packageRoot`.
    package init(
        packageRoot: URL, verbose: Bool = false, reportsDirectory: URL? = nil, skipPattern: String? = nil
    ) {
        self.packageRoot = packageRoot
        self.verbose = verbose
        self.skipPattern = skipPattern
        self.reportsDirectory =
            reportsDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "ribcage-test-\(UUID().uuidString)", isDirectory: true)
    }

    /// What one run left: a result per selected test target, and the logs to read for more.
    package struct Run: Sendable {
        /// One result per selected suite, in the order given.
        package var results: [TestSuiteResult]
        /// The full output of every `swift test` the run took.
        package var logs: [URL]
        /// What each green suite was traced reading, when the run was traced: read as the suite
        /// ended, while the others still ran.
        package var inputTraces: [String: InputTrace] = [:]
        /// The suites that failed under the trace and passed without it (``runEachAlone``).
        package var passedOnlyUntraced: [String] = []
        /// Why the run failed outside any one suite: the `swift test` of every suite together
        /// ended abnormally (a crash, an issue recorded outside a test), and each suite then
        /// passed alone. Plain `swift test` is red there, so the run is too.
        package var failedTogether: String?

        /// A run that gave `results` and wrote `logs`.
        package init(results: [TestSuiteResult], logs: [URL]) {
            self.results = results
            self.logs = logs
        }

        /// Adds what `other`, a run of other suites, gave.
        package mutating func append(_ other: Run) {
            results += other.results
            logs += other.logs
            inputTraces.merge(other.inputTraces) { first, _ in first }
            passedOnlyUntraced += other.passedOnlyUntraced
            failedTogether = failedTogether ?? other.failedTogether
        }
    }

    /// Builds the package and all of its tests once, so the tests can run with `--skip-build`.
    ///
    /// - Throws: ``RibcageError/buildFailed(details:)`` with the end of the build log.
    package func buildTests() async throws {
        try FileManager.default.createDirectory(at: reportsDirectory, withIntermediateDirectories: true)
        let log = reportsDirectory.appendingPathComponent("build.log")
        let result = try await Shell.run(
            "swift", ["build", "--build-tests"], in: packageRoot,
            output: verbose ? .fileAndStandardError(log) : .file(log))
        guard result.succeeded else {
            // A failed build's log can run to megabytes: read it off the cooperative pool.
            let text: String
            do {
                text = try await DedicatedThread.run(named: "ribcage-build-log") {
                    try String(contentsOf: log, encoding: .utf8)
                }
            } catch {
                text = "(The build log could not be read: \(error).)"
            }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            throw RibcageError.buildFailed(
                details: lines.suffix(80).joined(separator: "\n") + "\nFull log: \(log.path)")
        }
    }

    /// Whether `swift test` said, in `log`, that another SwiftPM held the build database or
    /// was rewriting the build manifest while this one read it. A log that cannot be read says
    /// neither: the run's result then stands as it is.
    static func foundBuildFolderBusy(in log: URL) async -> Bool {
        let text = try? await DedicatedThread.run(named: "ribcage-test-reports") {
            try String(contentsOf: log, encoding: .utf8)
        }
        guard let text else { return false }
        return text.contains("database is locked") || text.contains("unable to load build file")
    }

    /// Whether `strace` is installed and may trace here (a container can forbid `ptrace`).
    ///
    /// - Throws: `CancellationError` only: a probe that cannot start says strace cannot trace.
    package static func canTraceInputs() async throws -> Bool {
        guard Shell.isOnPath("strace") else { return false }
        do {
            let probe = try await Shell.run(
                "strace", InputTrace.wrapping(["true"], log: URL(fileURLWithPath: "/dev/null")))
            return probe.succeeded
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return false
        }
    }

    /// Runs `suites` (all of the package's when `everything` is true, so no filter is needed).
    package func run(_ suites: [TestSuite], everything: Bool) async throws -> Run {
        try FileManager.default.createDirectory(at: reportsDirectory, withIntermediateDirectories: true)
        let together = try await runOnce(
            suites, filter: everything ? nil : TestSuite.filter(for: suites), name: "swift-test")
        guard together.endedAbnormally, suites.count > 1 else {
            return Run(results: together.results(for: suites), logs: [together.log])
        }
        // A crash took the whole run down: run each target alone to find whose it is.
        var results: [TestSuiteResult] = []
        var logs = [together.log]
        for suite in suites {
            let alone = try await runOnce(
                [suite], filter: TestSuite.filter(for: [suite]), name: suite.testTarget)
            results += alone.results(for: [suite])
            logs.append(alone.log)
        }
        var run = Run(results: results, logs: logs)
        if results.allSatisfy({ $0.failures.isEmpty }) {
            // Nobody's alone: suites that break one another, or an issue outside any test.
            run.failedTogether =
                "`swift test` of these \(suites.count) test targets together "
                + together.process.terminationDescription
                + (together.problems.isEmpty ? "" : " (\(together.problems.joined(separator: "; ")))")
                + " with no failing test, and each passed alone; log: \(together.log.path)"
        }
        return run
    }

    /// One `swift test` process and what it reported.
    struct Outcome {
        var testCases: [TestCaseResult]
        /// Seconds each target's Swift Testing tests covered together (``SwiftTestingSpans``).
        var swiftTestingSeconds: [String: Double] = [:]
        var problems: [String]
        var process: ProcessResult
        var log: URL

        /// Exited non-zero (or was killed) without a failing test in its reports.
        var endedAbnormally: Bool {
            let anyFailed = testCases.contains { if case .failed = $0.outcome { true } else { false } }
            return (!process.succeeded && !anyFailed) || (testCases.isEmpty && !problems.isEmpty)
        }

        func results(for suites: [TestSuite]) -> [TestSuiteResult] {
            let byTarget = Dictionary(grouping: testCases, by: \.testTarget)
            let runnerFailure: String? =
                endedAbnormally
                ? "`swift test` \(process.terminationDescription)"
                    + (problems.isEmpty ? "" : " (\(problems.joined(separator: "; ")))")
                    + "; log: \(log.path)"
                : nil
            return suites.map { suite in
                let cases = byTarget[suite.moduleName] ?? []
                return TestSuiteResult(
                    suite: suite, testCases: cases, seconds: seconds(of: cases, in: suite.moduleName),
                    runnerFailure: runnerFailure)
            }
        }

        /// XCTest's cases run one after another in each process, so their durations add up;
        /// Swift Testing's run at once, so they count by the time they covered together.
        private func seconds(of cases: [TestCaseResult], in target: String) -> Double {
            let xctest = cases.filter { !$0.isSwiftTesting }
            let swiftTesting = cases.filter(\.isSwiftTesting)
            let swiftTestingSeconds =
                self.swiftTestingSeconds[target] ?? swiftTesting.reduce(0) { $0 + ($1.duration ?? 0) }
            return xctest.reduce(0) { $0 + ($1.duration ?? 0) }
                + (swiftTesting.isEmpty ? 0 : swiftTestingSeconds)
        }
    }

    func runOnce(
        _ suites: [TestSuite], filter: String?, name: String, traceTo trace: URL? = nil, alone: Bool = false,
        sandbox: [String]? = nil, startGate: SwiftPMStartGate? = nil
    ) async throws -> Outcome {
        // Suites alone go several at once, and SwiftPM holds its lock for a whole run: they ignore
        // it, and `startGate` keeps their start-ups (which do write to the build folder) apart.
        let lock = trace == nil && !alone ? [] : ["--ignore-lock"]
        let xctestReport = reportsDirectory.appendingPathComponent("\(name).xml")
        let swiftTestingReport = reportsDirectory.appendingPathComponent("\(name)-swift-testing.xml")
        let events = reportsDirectory.appendingPathComponent("\(name)-events.jsonl")
        let log = reportsDirectory.appendingPathComponent("\(name).log")
        for file in [xctestReport, swiftTestingReport, events] {
            try? FileManager.default.removeItem(at: file)
        }

        var arguments =
            [
                "test", "--skip-build", "--parallel",
            ] + lock + [
                "--xunit-output", xctestReport.path,
                "--event-stream-output-path", events.path, "--event-stream-version", "0",
            ]
        if let filter { arguments += ["--filter", filter] }
        if let skipPattern { arguments += ["--skip", skipPattern] }
        // `sandbox` is the `bwrap` command line that SwiftPM runs in (``SuiteSandbox``).
        var command = (sandbox ?? []) + ["swift"] + arguments
        if let trace { command = ["strace"] + InputTrace.wrapping(command, log: trace) }
        let output: Shell.Output = verbose ? .fileAndStandardError(log) : .file(log)
        let process =
            if let startGate {
                try await startGate.admit(startingBundleEndingWith: "PackageTests.xctest") { started in
                    try await Shell.run(
                        command[0], Array(command.dropFirst()), in: packageRoot, output: output,
                        whileRunning: started)
                }
            } else {
                try await Shell.run(command[0], Array(command.dropFirst()), in: packageRoot, output: output)
            }
        // The reports, the log and the event stream of a large run are megabytes: read them on a
        // thread of their own, not on the cooperative pool.
        let (testCases, spans, problems) = await DedicatedThread.run(named: "ribcage-test-reports") {
            Self.results(
                xctestReport: xctestReport, swiftTestingReport: swiftTestingReport, log: log, events: events,
                packageRoot: packageRoot)
        }
        return Outcome(
            testCases: testCases, swiftTestingSeconds: spans, problems: problems, process: process, log: log)
    }

    /// The test cases both libraries reported, their issues attached from the log and the event
    /// stream, and what could not be read.
    private static func results(
        xctestReport: URL, swiftTestingReport: URL, log: URL, events: URL, packageRoot: URL
    ) -> (testCases: [TestCaseResult], swiftTestingSeconds: [String: Double], problems: [String]) {
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
        let logText = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let eventText = (try? String(contentsOf: events, encoding: .utf8)) ?? ""
        TestIssues.attach(
            xctest: TestIssues.xctestIssues(inLog: logText, relativeTo: packageRoot),
            swiftTesting: TestIssues.swiftTestingIssues(inEventStream: eventText, relativeTo: packageRoot),
            to: &testCases)
        return (testCases, SwiftTestingSpans.coveredSeconds(inEventStream: eventText), problems)
    }
}
