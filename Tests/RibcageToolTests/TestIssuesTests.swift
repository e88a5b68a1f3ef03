import Foundation
import RibcageTesting
import Testing

@Suite("Where tests failed, from the log and the event stream")
struct TestIssuesTests {
    static let root = URL(fileURLWithPath: "/work/package")

    @Test("XCTest's failure lines, Linux and Darwin forms, relative to the package")
    func xctest() {
        let log = """
            Test Case 'BadCase.testThree' started at 2026-11-23 22:01:06.195
            /work/package/Tests/BadTests/BadCase.swift:5: error: BadCase.testThree : XCTAssertEqual failed: ("4") is not equal to ("3") - three is three
            /work/package/Tests/BadTests/BadCase.swift:6: error: BadCase.testTwice : XCTAssertTrue failed - second
            /elsewhere/Shared.swift:9: error: -[BadTests.BadCase testTwice] : failed - from a helper
            Sources/Bad/Bad.swift:3: error: this is a compiler's error, not a test's
            """
        let issues = TestIssues.xctestIssues(inLog: log, relativeTo: Self.root)
        #expect(
            issues["BadCase/testThree"] == [
                TestIssue(
                    file: "Tests/BadTests/BadCase.swift", line: 5,
                    message: #"XCTAssertEqual failed: ("4") is not equal to ("3") - three is three"#)
            ])
        #expect(
            issues["BadCase/testTwice"]?.map(\.description) == [
                "Tests/BadTests/BadCase.swift:6: XCTAssertTrue failed - second",
                "/elsewhere/Shared.swift:9: failed - from a helper",
            ])
        #expect(issues.count == 2)
    }

    @Test(
        "Swift Testing's issueRecorded events, keyed as its xUnit report names tests; known issues left out")
    func swiftTesting() {
        let stream = """
            {"kind":"test","payload":{"id":"BadTests.Named","kind":"suite","name":"Named"},"version":0}
            {"kind":"event","payload":{"kind":"issueRecorded","issue":{"isKnown":false,"sourceLocation":{"_filePath":"/work/package/Tests/BadTests/BadCase.swift","line":10,"column":62}},"messages":[{"symbol":"fail","text":"Expectation failed: 1 == 2"},{"symbol":"details","text":"one is not two"}],"testID":"BadTests.Named/shown()/BadCase.swift:10:40"},"version":0}
            {"kind":"event","payload":{"kind":"issueRecorded","issue":{"isKnown":false,"sourceLocation":{"_filePath":"/work/package/Tests/BadTests/BadCase.swift","line":9,"column":34}},"messages":[{"symbol":"fail","text":"Expectation failed: (three() → 4) == 3"}],"testID":"BadTests.swiftTestingFails()/BadCase.swift:9:2"},"version":0}
            {"kind":"event","payload":{"kind":"issueRecorded","issue":{"isKnown":true,"sourceLocation":{"_filePath":"/work/package/Tests/BadTests/BadCase.swift","line":12,"column":1}},"messages":[{"symbol":"fail","text":"known"}],"testID":"BadTests.Named/known()/BadCase.swift:12:2"},"version":0}
            not json at all
            """
        let issues = TestIssues.swiftTestingIssues(inEventStream: stream, relativeTo: Self.root)
        #expect(
            issues["BadTests.Named/shown()"]?.map(\.description) == [
                "Tests/BadTests/BadCase.swift:10: Expectation failed: 1 == 2 — one is not two"
            ])
        #expect(
            issues["BadTests/swiftTestingFails()"]?.map(\.description) == [
                "Tests/BadTests/BadCase.swift:9: Expectation failed: (three() → 4) == 3"
            ])
        #expect(issues.count == 2)
    }

    @Test("each failed test case gets its own issues, passed ones none")
    func attach() {
        var cases = [
            TestCaseResult(
                suite: "BadTests.BadCase", name: "testThree", duration: 0.1,
                outcome: .failed(message: "failure")),
            TestCaseResult(
                suite: "BadTests.Named", name: "shown()", duration: 0.1, outcome: .failed(message: "x")),
            TestCaseResult(suite: "BadTests.BadCase", name: "testFine", duration: 0.1, outcome: .passed),
        ]
        let issue = TestIssue(file: "T.swift", line: 1, message: "m")
        TestIssues.attach(
            xctest: ["BadCase/testThree": [issue], "BadCase/testFine": [issue]],
            swiftTesting: ["BadTests.Named/shown()": [issue, issue]], to: &cases)
        #expect(cases.map(\.issues.count) == [1, 2, 0])
    }
}
