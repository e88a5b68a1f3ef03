import RibcagePackage

extension Quarantine {
    /// Marks each of `results`' test cases with its quarantine, and adds a skipped case for each
    /// test that was never started because of it.
    package func apply(to results: [TestSuiteResult]) -> [TestSuiteResult] {
        results.map { result in
            var result = result
            for index in result.testCases.indices {
                result.testCases[index].quarantine = entry(for: result.testCases[index].id)?.mode
            }
            for entry in skipped(in: [result.suite.testTarget])
            where !result.testCases.contains(where: { $0.id == entry.test }) {
                let (suite, name) = TestCaseFilter.split(entry.test)
                var skipped = TestCaseResult(
                    suite: suite, name: name, duration: nil,
                    outcome: .skipped(reason: "quarantined: \(entry.reason)"))
                skipped.quarantine = .skip
                result.testCases.append(skipped)
            }
            return result
        }
    }
}
