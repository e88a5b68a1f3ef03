/// The outcome of one test target's tests.
package struct TestSuiteResult: Sendable, Equatable {
    /// The suite that ran.
    package var suite: TestSuite
    /// Every test case the runner reported, from both test libraries.
    package var testCases: [TestCaseResult]
    /// Seconds its tests took: their own durations as the reports give them, added up (the
    /// targets run side by side in one `swift test --parallel`, so wall time is shared).
    package var seconds: Double
    /// A failure of the run itself (a crash, a missing report), which counts as one failed test.
    package var runnerFailure: String?

    /// Creates a suite result.
    package init(suite: TestSuite, testCases: [TestCaseResult], seconds: Double, runnerFailure: String?) {
        self.suite = suite
        self.testCases = testCases
        self.seconds = seconds
        self.runnerFailure = runnerFailure
    }

    /// Tests that passed.
    package var passed: Int { testCases.count { $0.outcome == .passed } }
    /// Tests that failed, counting a failed run as one.
    package var failed: Int {
        testCases.count { if case .failed = $0.outcome { true } else { false } }
            + (runnerFailure == nil ? 0 : 1)
    }
    /// Tests that were skipped.
    package var skipped: Int {
        testCases.count { if case .skipped = $0.outcome { true } else { false } }
    }
    /// Tests that ran: passed plus failed.
    package var run: Int { passed + failed }

    /// A failed test: its name, the report's message, and the issues the log placed in the sources.
    package struct Failure: Sendable, Equatable {
        /// `Target.Suite/test`.
        package var test: String
        /// The report's message.
        package var message: String
        /// Each issue with its file and line, when the log gave them.
        package var issues: [TestIssue]
    }

    /// The failed test cases, and the runner failure if there was one.
    package var failures: [Failure] {
        var list: [Failure] = testCases.compactMap { testCase in
            guard case .failed(let message) = testCase.outcome else { return nil }
            return Failure(
                test: "\(testCase.suite)/\(testCase.name)", message: message, issues: testCase.issues)
        }
        if let runnerFailure {
            list.append(Failure(test: "\(suite.testTarget) (test run)", message: runnerFailure, issues: []))
        }
        return list
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

    /// One row for a test target.
    package func row(_ result: TestSuiteResult) -> String {
        let numbers = [result.run, result.passed, result.failed, result.skipped].map { String($0) }
        let hundredths = String(Int((result.seconds * 100).rounded())).leftPadded(3, with: "0")
        let seconds = "\(hundredths.dropLast(2)).\(hundredths.suffix(2))"
        return pad(result.suite.testTarget) + (numbers + [seconds]).map { " " + leftPad($0, 7) }.joined()
    }

    /// The closing line that totals every suite: `N passed, N failed, N skipped`.
    package static func closingLine(_ results: [TestSuiteResult]) -> String {
        let passed = results.reduce(0) { $0 + $1.passed }
        let failed = results.reduce(0) { $0 + $1.failed }
        let skipped = results.reduce(0) { $0 + $1.skipped }
        return "\(passed) passed, \(failed) failed, \(skipped) skipped"
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
