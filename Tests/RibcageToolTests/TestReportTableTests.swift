import RibcageTesting
import Testing

@Suite("The test report table")
struct TestReportTableTests {
    static func result(_ module: String, passed: Int, failed: Int, skipped: Int, runnerFailure: String? = nil)
        -> TestSuiteResult
    {
        var cases: [TestCaseResult] = []
        cases += (0..<passed).map {
            TestCaseResult(suite: "S", name: "p\($0)", duration: 0.1, outcome: .passed)
        }
        cases += (0..<failed).map {
            TestCaseResult(suite: "S", name: "f\($0)", duration: 0.1, outcome: .failed(message: "boom \($0)"))
        }
        cases += (0..<skipped).map {
            TestCaseResult(suite: "S", name: "s\($0)", duration: nil, outcome: .skipped(reason: ""))
        }
        return TestSuiteResult(
            suite: TestSuite(testTarget: "\(module)Tests", modules: [module]), testCases: cases,
            seconds: 1.234,
            runnerFailure: runnerFailure)
    }

    @Test("prints one aligned row per test target")
    func rows() {
        let table = TestReportTable(testTargets: ["AndTests", "NetworkProviderTests"])
        #expect(table.header == "Test target              Run  Passed  Failed Skipped Seconds")
        #expect(
            table.row(Self.result("And", passed: 12, failed: 1, skipped: 2))
                == "AndTests                  13      12       1       2    1.23")
    }

    @Test("totals every module in the closing line")
    func closingLine() {
        let results = [
            Self.result("And", passed: 3, failed: 0, skipped: 1),
            Self.result("RIBs", passed: 40, failed: 2, skipped: 0),
        ]
        #expect(TestReportTable.closingLine(results) == "43 passed, 2 failed, 1 skipped")
    }

    @Test("counts a crashed run as a failure and lists it")
    func runnerFailure() {
        let result = Self.result(
            "And", passed: 2, failed: 0, skipped: 0, runnerFailure: "exited with status 132")
        #expect(result.failed == 1)
        #expect(result.failures.map(\.test) == ["AndTests (test run)"])
        #expect(TestReportTable.closingLine([result]) == "2 passed, 1 failed, 0 skipped")
    }
}
