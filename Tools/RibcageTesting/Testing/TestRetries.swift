import Foundation
import RibcagePackage

extension TestRunner {
    /// Runs the failed tests of `run` again, up to `rounds` times, each round one `swift test`
    /// whose filter selects exactly the tests still failing (``TestCaseFilter``).
    ///
    /// A test that passes on a retry becomes passed with its earlier failures kept in
    /// ``TestCaseResult/failedAttempts``: flaky. One that fails every round stays failed, with
    /// each retry's failure kept. Muted tests are not retried (their failure does not count),
    /// nor are the tests of a suite whose process crashed: that suite has no trustworthy
    /// per-test result, and ``run(_:everything:)`` already ran it again alone.
    ///
    /// - Parameter note: Told of each round as it starts, and of a retried test that the retry
    ///   did not report (a crash in the retry, or a test that no longer exists).
    package func retryingFailures(
        of run: Run, rounds: Int, note: @Sendable (String) -> Void
    ) async throws -> Run {
        var run = run
        guard rounds > 0 else { return run }
        for round in 1...rounds {
            let failing = run.results.filter { $0.runnerFailure == nil }.flatMap { result in
                result.testCases.filter(\.isCountedFailure).map(\.id)
            }
            guard !failing.isEmpty else { break }
            let suites = run.results.map(\.suite).filter { suite in
                failing.contains { TestCaseFilter.testTarget(ofTest: $0) == suite.moduleName }
            }
            note(
                "Retrying \(failing.count) failed test\(failing.count == 1 ? "" : "s") (round \(round) of \(rounds))…"
            )
            let retry = try await runOnce(
                suites, filter: TestCaseFilter.pattern(for: failing), name: "retry-\(round)")
            run.logs.append(retry.log)
            let again = Dictionary(
                retry.testCases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for resultIndex in run.results.indices {
                for caseIndex in run.results[resultIndex].testCases.indices {
                    let testCase = run.results[resultIndex].testCases[caseIndex]
                    guard testCase.isCountedFailure, let summary = testCase.failureSummary else { continue }
                    guard let retried = again[testCase.id] else {
                        note(
                            "\(testCase.id): its retry reported nothing (\(retry.process.terminationDescription)); "
                                + "it stays failed. Log: \(retry.log.path)")
                        continue
                    }
                    switch retried.outcome {
                    case .passed:
                        run.results[resultIndex].testCases[caseIndex].outcome = .passed
                        run.results[resultIndex].testCases[caseIndex].failedAttempts =
                            [summary] + testCase.failedAttempts
                    case .failed:
                        run.results[resultIndex].testCases[caseIndex].failedAttempts.append(
                            retried.failureSummary ?? "failed")
                    case .skipped(let reason):
                        run.results[resultIndex].testCases[caseIndex].failedAttempts.append(
                            "skipped on retry: \(reason)")
                    }
                }
            }
        }
        return run
    }
}
