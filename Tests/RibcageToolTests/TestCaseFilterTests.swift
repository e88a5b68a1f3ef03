import RibcagePackage
import Testing

@Suite("Patterns that select one test case")
struct TestCaseFilterTests {
    // Foundation's escaping writes `/` as `\/`, which both libraries' regular expressions read
    // as a plain `/`.
    @Test("an XCTest method is matched whole, by its printed name")
    func xctest() {
        #expect(TestCaseFilter.pattern(for: "AndTests.DoTests/testOne") == #"^AndTests\.DoTests\/testOne$"#)
    }

    @Test("a Swift Testing function is matched by its test ID, at the top level and nested")
    func swiftTesting() {
        #expect(TestCaseFilter.pattern(for: "AndTests/runs()") == #"^AndTests\.runs\(\)(/|$)"#)
        #expect(
            TestCaseFilter.pattern(for: "AndTests.Group/param(n:)") == #"^AndTests\.Group\/param\(n:\)(/|$)"#)
        #expect(
            TestCaseFilter.pattern(for: "AndTests.Outer.Inner/deep()")
                == #"^AndTests\.Outer\/Inner\/deep\(\)(/|$)"#)
    }

    @Test("a test's target is the first component of its suite")
    func testTarget() {
        #expect(TestCaseFilter.testTarget(ofTest: "AndTests.Outer.Inner/deep()") == "AndTests")
        #expect(TestCaseFilter.testTarget(ofTest: "AndTests/runs()") == "AndTests")
        #expect(TestCaseFilter.split("AndTests.DoTests/testOne") == ("AndTests.DoTests", "testOne"))
    }

    @Test("several tests make one alternation")
    func several() {
        #expect(
            TestCaseFilter.pattern(for: ["A.B/testC", "A/d()"]) == #"(^A\.B\/testC$|^A\.d\(\)(/|$))"#)
    }
}
