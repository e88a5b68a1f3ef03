import Foundation
import RibcagePackage
import RibcageTesting
import Testing

@Suite("The JUnit report")
struct JUnitReportTests {
    /// A run with every shape a test can end in: passed, flaky, failed after retries, muted,
    /// skipped by itself and by the quarantine, and a crashed suite.
    static func results() -> [TestSuiteResult] {
        var flaky = TestCaseResult(suite: "ATests.A", name: "testFlips", duration: 0.25, outcome: .passed)
        flaky.failedAttempts = ["A.swift:3: XCTAssertTrue failed"]
        var failing = TestCaseResult(
            suite: "ATests.A", name: "testBroken", duration: 0.5,
            outcome: .failed(message: "first <&> \"one\""))
        failing.failedAttempts = ["second", "third\nwith a line break"]
        var muted = TestCaseResult(
            suite: "ATests", name: "muted()", duration: 0.001, outcome: .failed(message: "no"))
        muted.quarantine = .mute
        var quarantined = TestCaseResult(
            suite: "ATests", name: "skipped()", duration: nil, outcome: .skipped(reason: "quarantined: slow"))
        quarantined.quarantine = .skip
        return [
            TestSuiteResult(
                suite: TestSuite(testTarget: "ATests", modules: ["A"]),
                testCases: [
                    TestCaseResult(
                        suite: "ATests.A", name: "testFine", duration: 0.0001234, outcome: .passed),
                    flaky, failing, muted, quarantined,
                    TestCaseResult(
                        suite: "ATests", name: "later()", duration: 0,
                        outcome: .skipped(reason: "not on Linux")),
                ], seconds: 0.751, runnerFailure: nil),
            TestSuiteResult(
                suite: TestSuite(testTarget: "BTests", modules: ["B"]), testCases: [], seconds: 0,
                runnerFailure: "`swift test` was killed by signal 11; log: /tmp/x.log"),
        ]
    }

    static var report: JUnitReport {
        JUnitReport(
            results: results(), timestamp: Date(timeIntervalSince1970: 1_800_000_000), hostname: "ci-7")
    }

    @Test("a <testsuite> per test target, with Surefire's retry elements")
    func shape() throws {
        let xml = Self.report.xml
        #expect(
            xml.contains(#"<testsuites name="ribcage test" tests="7" failures="1" errors="1" time="0.751">"#))
        #expect(
            xml.contains(
                #"<testsuite name="ATests" tests="6" failures="1" errors="0" skipped="3" time="0.751" timestamp="2027-01-15T08:00:00Z" hostname="ci-7">"#
            ))
        #expect(xml.contains(#"<testcase classname="ATests.A" name="testFine" time="0.000"/>"#))
        #expect(xml.contains(#"<flakyFailure type="failure" message="A.swift:3: XCTAssertTrue failed"/>"#))
        #expect(xml.contains(#"<failure type="failure" message="first &lt;&amp;&gt; &quot;one&quot;"/>"#))
        #expect(xml.contains(#"<rerunFailure type="failure" message="third&#10;with a line break"/>"#))
        #expect(xml.contains(#"<skipped message="quarantined (mute), failed: no"/>"#))
        #expect(xml.contains(#"<skipped message="quarantined: slow"/>"#))
        #expect(xml.contains(#"<testcase classname="BTests" name="(test run)">"#))
        #expect(
            xml.contains(
                #"<error type="crash" message="`swift test` was killed by signal 11; log: /tmp/x.log"/>"#))

        // Read back as a CI system would: the flaky test passed, the broken one failed.
        let read = try XUnitReport(data: Data(xml.utf8)).testCases
        #expect(read.first { $0.name == "testFlips" }?.outcome == .passed)
        #expect(read.first { $0.name == "testBroken" }?.outcome == .failed(message: "first <&> \"one\""))
        #expect(read.first { $0.name == "(test run)" }?.outcome != .passed)
    }

    @Test(
        "is valid against the JUnit schema Jenkins uses (xmllint, the schema from PyPI)",
        .enabled(if: Shell.isOnPath("xmllint"), "xmllint is not installed (Tools/install-system-packages)"))
    func validAgainstTheSchema() async throws {
        let folder = try TemporaryFolder()
        let schema = try await JUnitSchema.fetch(into: folder.url)
        let file = folder.url.appendingPathComponent("out/junit.xml")
        try await Self.report.write(to: file)
        let check = try await Shell.run("xmllint", ["--noout", "--schema", schema.path, file.path])
        #expect(check.succeeded, "\(check.errorText)")

        // And the schema does catch what it should: an attribute it does not allow.
        let broken = folder.url.appendingPathComponent("broken.xml")
        try Data(
            Self.report.xml.replacingOccurrences(of: "<flakyFailure type", with: "<flakyFailure kind").utf8
        )
        .write(to: broken)
        let refused = try await Shell.run("xmllint", ["--noout", "--schema", schema.path, broken.path])
        #expect(!refused.succeeded)
    }
}

/// Jenkins' JUnit schema (`junit-10.xsd`, the Surefire format with `flakyFailure` and
/// `rerunFailure`), as pytest ships it in its source distribution on PyPI, which CI reaches.
enum JUnitSchema {
    static let pytest = "pytest==9.2.0"
    static let member = "pytest-9.2.0/testing/example_scripts/junit-10.xsd"

    static func fetch(into folder: URL) async throws -> URL {
        let download = try await Shell.run(
            "python3",
            [
                "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
                "--no-binary", ":all:", "--dest", folder.path, pytest,
            ])
        try #require(download.succeeded, "pip could not download \(pytest) from PyPI: \(download.errorText)")
        let unpack = try await Shell.run(
            "tar", ["-xzf", folder.appendingPathComponent("pytest-9.2.0.tar.gz").path, member], in: folder)
        try #require(unpack.succeeded, "\(unpack.errorText)")
        return folder.appendingPathComponent(member)
    }
}
