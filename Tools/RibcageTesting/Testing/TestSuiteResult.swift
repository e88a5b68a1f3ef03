/// The outcome of one test target's tests.
package struct TestSuiteResult: Sendable, Equatable {
    /// The suite that ran.
    package var suite: TestSuite
    /// Every test case the runner reported, from both test libraries.
    package var testCases: [TestCaseResult]
    /// Seconds its tests took: XCTest's durations added up (they run one after another), and
    /// the time Swift Testing's tests covered together (they run at once; ``SwiftTestingSpans``).
    /// The targets run side by side in one `swift test --parallel`, so wall time is shared.
    package var seconds: Double
    /// A failure of the run itself (a crash, a missing report), which counts as one failed test.
    package var runnerFailure: String?
    /// Where the tests ran.
    package var place: Place = .local
    /// The run was stopped at its timeout (``runnerFailure`` says so): a worker's, given by
    /// `ribcage test --remote-timeout`.
    package var stoppedAtTimeout = false

    /// Where a suite's tests ran.
    package enum Place: Sendable, Equatable {
        /// Here, in a `swift test`.
        case local
        /// On a REAPI server's worker (`ribcage test --remote-executor`).
        case remote
        /// Nowhere this time: the server's action cache held the result of the same action.
        case remoteCache
        /// Here, after it failed on a worker: this run's result is the one that counts.
        case hereAfterRemoteFailure
    }

    /// Creates a suite result.
    package init(suite: TestSuite, testCases: [TestCaseResult], seconds: Double, runnerFailure: String?) {
        self.suite = suite
        self.testCases = testCases
        self.seconds = seconds
        self.runnerFailure = runnerFailure
    }

    /// Tests that passed on their first attempt.
    package var passed: Int { testCases.count { $0.outcome == .passed && $0.failedAttempts.isEmpty } }
    /// Tests that failed, then passed on a retry.
    package var flaky: Int { testCases.count(where: \.isFlaky) }
    /// Tests that failed, counting a failed run as one; a muted test's failure is not counted.
    package var failed: Int {
        testCases.count(where: \.isCountedFailure) + (runnerFailure == nil ? 0 : 1)
    }
    /// Muted tests that failed.
    package var muted: Int { testCases.count(where: \.isMutedFailure) }
    /// Tests that were skipped, by the test itself or by the quarantine.
    package var skipped: Int {
        testCases.count { if case .skipped = $0.outcome { true } else { false } }
    }
    /// Tests the quarantine kept from starting.
    package var quarantineSkipped: Int { testCases.count { $0.quarantine == .skip } }
    /// Tests that ran: passed, flaky, failed and muted failures.
    package var run: Int { passed + flaky + failed + muted }
    /// Every test passed at its first attempt, none was kept from running by the quarantine,
    /// and the run ended by itself: what the test cache may keep as green.
    package var isCleanlyGreen: Bool {
        runnerFailure == nil && !testCases.isEmpty && quarantineSkipped == 0
            && testCases.allSatisfy { $0.failedAttempts.isEmpty && $0.outcome.isPassedOrSkipped }
    }

    /// A failed test: its name, the report's message, and the issues the log placed in the sources.
    package struct Failure: Sendable, Equatable {
        /// `Target.Suite/test`.
        package var test: String
        /// The report's message.
        package var message: String
        /// Each issue with its file and line, when the log gave them.
        package var issues: [TestIssue]
    }

    /// The failed test cases that count, and the runner failure if there was one.
    package var failures: [Failure] {
        var list = failures(where: \.isCountedFailure)
        if let runnerFailure {
            list.append(Failure(test: "\(suite.testTarget) (test run)", message: runnerFailure, issues: []))
        }
        return list
    }

    /// The muted tests that failed.
    package var mutedFailures: [Failure] { failures(where: \.isMutedFailure) }

    private func failures(where include: (TestCaseResult) -> Bool) -> [Failure] {
        testCases.compactMap { testCase in
            guard include(testCase), case .failed(let message) = testCase.outcome else { return nil }
            return Failure(test: testCase.id, message: message, issues: testCase.issues)
        }
    }

    /// The tests that failed and then passed on a retry, with their first failure.
    package var flakyTests: [Failure] {
        testCases.filter(\.isFlaky).map {
            Failure(test: $0.id, message: $0.failedAttempts.first ?? "", issues: $0.issues)
        }
    }
}

extension TestSuiteResult.Place {
    /// What the table says of it after the row.
    var note: String? {
        switch self {
        case .local: nil
        case .remote: "remote"
        case .remoteCache: "remote, from the action cache"
        case .hereAfterRemoteFailure: "failed remotely, ran here"
        }
    }
}

extension TestCaseResult.Outcome {
    var isPassedOrSkipped: Bool {
        if case .failed = self { false } else { true }
    }
}

/// Renders suite results as the table `ribcage test` prints.
package struct TestReportTable: Sendable {
    /// The column headings, in order.
    package static let headings = ["Test target", "Run", "Passed", "Failed", "Skipped", "Seconds"]

    private let nameWidth: Int

    /// A table wide enough for the longest of `testTargets`.
    package init(testTargets: [String]) {
        nameWidth = max(Self.headings[0].count, testTargets.map(\.count).max() ?? 0)
    }

    /// The heading line.
    package var header: String {
        pad(Self.headings[0]) + Self.headings.dropFirst().map { " " + leftPad($0, 7) }.joined()
    }

    /// One row for a test target, with what was flaky, muted or quarantined after it.
    package func row(_ result: TestSuiteResult) -> String {
        let numbers = [result.run, result.passed, result.failed, result.skipped].map { String($0) }
        let hundredths = String(Int((result.seconds * 100).rounded())).leftPadded(3, with: "0")
        let seconds = "\(hundredths.dropLast(2)).\(hundredths.suffix(2))"
        let notes = [
            result.place.note,
            result.flaky > 0 ? "\(result.flaky) flaky" : nil,
            result.muted > 0 ? "\(result.muted) failed muted" : nil,
            result.quarantineSkipped > 0 ? "\(result.quarantineSkipped) skipped by quarantine" : nil,
        ].compactMap { $0 }
        return pad(result.suite.testTarget) + (numbers + [seconds]).map { " " + leftPad($0, 7) }.joined()
            + (notes.isEmpty ? "" : "  (" + notes.joined(separator: ", ") + ")")
    }

    /// The closing line that totals every suite: `N passed, N failed, N skipped`, with
    /// `N flaky` and `N muted` after the failures when there are any, and the quarantined share
    /// of the skipped.
    package static func closingLine(_ results: [TestSuiteResult]) -> String {
        let total = { (count: (TestSuiteResult) -> Int) in results.reduce(0) { $0 + count($1) } }
        var parts = ["\(total(\.passed)) passed", "\(total(\.failed)) failed"]
        if total(\.flaky) > 0 { parts.append("\(total(\.flaky)) flaky") }
        if total(\.muted) > 0 { parts.append("\(total(\.muted)) muted") }
        let quarantined = total(\.quarantineSkipped)
        parts.append("\(total(\.skipped)) skipped" + (quarantined > 0 ? " (\(quarantined) quarantined)" : ""))
        return parts.joined(separator: ", ")
    }

    private func pad(_ text: String) -> String {
        text + String(repeating: " ", count: max(0, nameWidth - text.count))
    }

    private func leftPad(_ text: String, _ width: Int) -> String {
        text.leftPadded(width, with: " ")
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int, with filler: Character) -> String {
        String(repeating: filler, count: max(0, width - count)) + self
    }
}
