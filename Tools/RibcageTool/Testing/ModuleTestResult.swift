/// The outcome of running one module's test suite.
package struct ModuleTestResult: Sendable, Equatable {
    /// The suite that ran.
    package var suite: ModuleTestSuite
    /// Every test case the runner reported, from both test libraries.
    package var testCases: [TestCaseResult]
    /// Wall-clock seconds for the module's `swift test` run.
    package var seconds: Double
    /// A failure of the run itself (a crash, a missing report), which counts as one failed test.
    package var runnerFailure: String?

    /// Creates a module result.
    package init(suite: ModuleTestSuite, testCases: [TestCaseResult], seconds: Double, runnerFailure: String?)
    {
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

    /// The failed test cases with their messages, and the runner failure if there was one.
    package var failures: [(test: String, message: String)] {
        var list: [(test: String, message: String)] = testCases.compactMap { testCase in
            guard case .failed(let message) = testCase.outcome else { return nil }
            return ("\(testCase.suite)/\(testCase.name)", message)
        }
        if let runnerFailure { list.append(("\(suite.testTarget) (test run)", runnerFailure)) }
        return list
    }
}

/// Renders module results as the table `ribcage test` prints.
package struct TestReportTable: Sendable {
    /// The column headings, in order.
    package static let headings = ["Module", "Run", "Passed", "Failed", "Skipped", "Seconds"]

    private let moduleWidth: Int

    /// A table wide enough for the longest of `modules`.
    package init(modules: [String]) {
        moduleWidth = max(Self.headings[0].count, modules.map(\.count).max() ?? 0)
    }

    /// The heading line.
    package var header: String {
        pad(Self.headings[0]) + Self.headings.dropFirst().map { " " + leftPad($0, 7) }.joined()
    }

    /// One row for a module.
    package func row(_ result: ModuleTestResult) -> String {
        let numbers = [result.run, result.passed, result.failed, result.skipped].map { String($0) }
        let seconds = String(Int((result.seconds * 100).rounded())).leftPadded(3, with: "0")
        let secondsText = "\(seconds.dropLast(2)).\(seconds.suffix(2))"
        return pad(result.suite.module) + (numbers + [secondsText]).map { " " + leftPad($0, 7) }.joined()
    }

    /// The closing line that totals every module: `N passed, N failed, N skipped`.
    package static func closingLine(_ results: [ModuleTestResult]) -> String {
        let passed = results.reduce(0) { $0 + $1.passed }
        let failed = results.reduce(0) { $0 + $1.failed }
        let skipped = results.reduce(0) { $0 + $1.skipped }
        return "\(passed) passed, \(failed) failed, \(skipped) skipped"
    }

    private func pad(_ text: String) -> String {
        text + String(repeating: " ", count: max(0, moduleWidth - text.count))
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
