import Foundation
import RemoteExecution

extension RemoteTestRunner {
    /// One action's remote result, and where its output was written.
    struct Finished: Sendable {
        var result: TestSuiteResult
        /// What the server answered, to keep under the stand-in's key.
        var actionResult: REAPI.ActionResult
        var log: URL
        /// What went wrong here while reading the result back (the log could not be written).
        var problem: String?
        /// The run's filter selected no test: Swift Testing exits with 69 (`EX_UNAVAILABLE`) and
        /// writes a report of none. A shard may (its types' tests all quarantined, or only under
        /// an `#if` for another system); a whole target, or every shard of one, may not.
        var matchedNoTest = false

        /// A remote run's result, read as a local run's is: the xUnit report's cases, their
        /// issues from the event stream, and a runner failure for a run that ended without its
        /// report, that exited non-zero with no failed test, or that was stopped at its timeout.
        ///
        /// Blocking: it writes the reports beside `log`.
        init(
            _ suite: TestSuite, execution: RemoteExecutionClient.Execution, reports: TestAction.Reports,
            log: URL,
            packageRoot: URL, timeout: Duration
        ) {
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
                    problem =
                        "\(suite.testTarget)'s remote output could not be written to \(file.path): \(error)"
                }
            }
            var testCases: [TestCaseResult] = []
            var unreadable: String?
            if let xunit = reports.xunit {
                do {
                    testCases = try XUnitReport(
                        data: xunit, file: "\(suite.testTarget)'s remote xUnit report"
                    )
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
            matchedNoTest =
                exitCode == Self.noTestMatched && reports.xunit != nil && unreadable == nil
                && testCases.isEmpty
            let runnerFailure: String? =
                if matchedNoTest {
                    nil
                } else if execution.actionTimedOut {
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
            result = TestSuiteResult(
                suite: suite, testCases: testCases,
                seconds: spans[suite.moduleName] ?? testCases.reduce(0) { $0 + ($1.duration ?? 0) },
                runnerFailure: runnerFailure)
            result.place = execution.cachedResult ? .remoteCache : .remote
            result.stoppedAtTimeout = execution.actionTimedOut
            actionResult = execution.result
            self.log = log
        }

        /// Swift Testing's exit status when its filter selects no test.
        static let noTestMatched: Int32 = 69

        /// A test target's result from those of its shards, in shard order: their test cases
        /// together, their seconds added up (the work, as a local run would do it), each runner
        /// failure with its log. It ran remotely if any shard did. It counts as stopped at its
        /// timeout only when every red shard was, so that a shard red for another reason still
        /// sends the target to run here. A target none of whose actions matched a test fails:
        /// its filter names no test of it.
        static func result(of suite: TestSuite, fromShards shards: [Finished]) -> TestSuiteResult {
            var failures = shards.compactMap(\.result.runnerFailure)
            if shards.allSatisfy(\.matchedNoTest), let log = shards.first?.log {
                failures.append(
                    "no test of \(suite.testTarget) matched the remote run's filter "
                        + "(Swift Testing names tests after the module, and a type's extension after the type's module); "
                        + "log: \(log.path)")
            }
            var result = TestSuiteResult(
                suite: suite, testCases: shards.flatMap(\.result.testCases),
                seconds: shards.reduce(0) { $0 + $1.result.seconds },
                runnerFailure: failures.isEmpty ? nil : failures.joined(separator: "; "))
            result.place = shards.contains { $0.result.place == .remote } ? .remote : .remoteCache
            let red = shards.filter { $0.result.failed > 0 }
            result.stoppedAtTimeout = !red.isEmpty && red.allSatisfy(\.result.stoppedAtTimeout)
            return result
        }
    }
}
