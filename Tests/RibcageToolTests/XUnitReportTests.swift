import Foundation
import RibcageTesting
import Testing

@Suite("Reading xUnit reports")
struct XUnitReportTests {
    // Shaped exactly like the files Swift 6.3.1 writes; see `swift test --parallel --xunit-output`.
    static let swiftTestingReport = """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites>
          <testsuite name="TestResults" errors="0" tests="2" failures="1" skipped="1" time="0.002">
            <testcase classname="ATests.ASuite" name="three()" >
              <skipped>not on Linux</skipped>
            </testcase>
            <testcase classname="ATests.ASuite" name="two()" time="0.0011" >
              <failure message="Expectation failed: (f() &#8594; 1) == 2 (error)" />
            </testcase>
            <testcase classname="ATests.ASuite" name="one()" time="0.0002" />
          </testsuite>
        </testsuites>
        """

    static let xctestReport = """
        <?xml version="1.0" encoding="UTF-8"?>

        <testsuites>
        <testsuite name="TestResults" errors="0" tests="2" failures="1" time="0.17">
        <testcase classname="BTests.BCase" name="testOne" time="0.08">
        </testcase>
        <testcase classname="BTests.BCase" name="testTwo" time="0.08">
        <failure message="XCTAssertEqual failed: (&quot;1&quot;) is not equal to (&quot;2&quot;)"></failure>
        </testcase>
        </testsuite>
        </testsuites>
        """

    @Test("reads passed, failed and skipped cases from a Swift Testing report")
    func swiftTesting() throws {
        let report = try XUnitReport(data: Data(Self.swiftTestingReport.utf8))
        #expect(
            report.testCases == [
                TestCaseResult(
                    suite: "ATests.ASuite", name: "three()", duration: nil,
                    outcome: .skipped(reason: "not on Linux")),
                TestCaseResult(
                    suite: "ATests.ASuite", name: "two()", duration: 0.0011,
                    outcome: .failed(message: "Expectation failed: (f() → 1) == 2 (error)")),
                TestCaseResult(suite: "ATests.ASuite", name: "one()", duration: 0.0002, outcome: .passed),
            ])
    }

    @Test("reads an XCTest report, unescaping failure messages")
    func xctest() throws {
        let report = try XUnitReport(data: Data(Self.xctestReport.utf8))
        #expect(report.testCases.map(\.name) == ["testOne", "testTwo"])
        #expect(report.testCases[0].outcome == .passed)
        #expect(
            report.testCases[1].outcome
                == .failed(message: #"XCTAssertEqual failed: ("1") is not equal to ("2")"#))
    }

    @Test("reads an empty report as no test cases")
    func empty() throws {
        let data = Data(
            #"<?xml version="1.0"?><testsuites><testsuite name="x" tests="0"></testsuite></testsuites>"#.utf8)
        #expect(try XUnitReport(data: data).testCases.isEmpty)
    }

    @Test("rejects malformed XML with an error naming the file")
    func malformed() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("broken.xml")
        try Data("<testsuites><testcase name=".utf8).write(to: file)
        let error = try #require(throws: XUnitReport.ParseError.self) { try XUnitReport(contentsOf: file) }
        #expect(error.file == file.path)
        #expect(error.description.contains("broken.xml"))
    }

    @Test("rejects XML that is not an xUnit report")
    func notXUnit() throws {
        let error = try #require(throws: XUnitReport.ParseError.self) {
            try XUnitReport(data: Data("<html><body/></html>".utf8))
        }
        #expect(error.reason.contains("<testsuites>"))
    }

    @Test("reports a missing file as unreadable")
    func missingFile() throws {
        let url = URL(fileURLWithPath: "/nonexistent/ribcage/report.xml")
        #expect(throws: XUnitReport.ParseError.self) { try XUnitReport(contentsOf: url) }
    }
}
