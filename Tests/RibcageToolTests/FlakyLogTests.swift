import Foundation
import RibcagePackage
import RibcageTesting
import Testing

@Suite("The flaky log")
struct FlakyLogTests {
    static let day: TimeInterval = 86_400
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func event(_ test: String, daysAgo: Double, host: String = "ci-1", failed: Int = 1) -> FlakyEvent {
        FlakyEvent(
            test: test, testTarget: TestCaseFilter.testTarget(ofTest: test), failed: failed, passed: 1,
            evidence: .retry, key: nil, commit: "abc1234", hosts: [host], date: now - daysAgo * day)
    }

    @Test("adds up each test's sightings, newest first, with its machines and quarantine")
    func lists() {
        let events = [
            Self.event("ATests.A/testOne", daysAgo: 3, host: "ci-2"),
            Self.event("ATests.A/testOne", daysAgo: 1, failed: 2),
            Self.event("BTests/two()", daysAgo: 2),
        ]
        let quarantine = Quarantine(entries: [.init(test: "BTests/two()", mode: .skip, reason: "", since: "")]
        )
        let listed = FlakyLog.flakyTests(
            events, now: Self.now, cooldown: 14 * Self.day, quarantine: quarantine)
        #expect(listed.map(\.test) == ["ATests.A/testOne", "BTests/two()"])
        #expect(listed[0].sightings == 2)
        #expect(listed[0].failed == 3)
        #expect(listed[0].passed == 2)
        #expect(listed[0].hosts == ["ci-1", "ci-2"])
        #expect(listed[0].firstSeen == Self.now - 3 * Self.day)
        #expect(listed[0].lastSeen == Self.now - Self.day)
        #expect(listed[0].quarantine == nil)
        #expect(listed[1].quarantine == .skip)
    }

    @Test("a test quiet for longer than the cooldown is cleared; a newer sighting brings it back")
    func clears() {
        let old = [Self.event("ATests.A/testOne", daysAgo: 15)]
        #expect(
            FlakyLog.flakyTests(old, now: Self.now, cooldown: 14 * Self.day, quarantine: Quarantine()).isEmpty
        )
        #expect(
            FlakyLog.flakyTests(old, now: Self.now, cooldown: 16 * Self.day, quarantine: Quarantine()).count
                == 1)
        let again = old + [Self.event("ATests.A/testOne", daysAgo: 0.5)]
        let listed = FlakyLog.flakyTests(
            again, now: Self.now, cooldown: 14 * Self.day, quarantine: Quarantine())
        #expect(listed.map(\.sightings) == [1])
    }

    @Test("appends whole lines; a damaged line costs only itself")
    func file() async throws {
        let folder = try TemporaryFolder()
        let log = FlakyLog(file: folder.url.appendingPathComponent("deep/flaky.jsonl"))
        #expect(try await log.read().events.isEmpty)
        try await log.append([Self.event("ATests.A/testOne", daysAgo: 1)])
        // A run killed halfway through its line.
        let handle = try FileHandle(forWritingTo: log.file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"test":"ATests.A/te"#.utf8))
        try handle.close()
        try await log.append([Self.event("BTests/two()", daysAgo: 0)])
        let (events, unreadable) = try await log.read()
        #expect(events.map(\.test) == ["ATests.A/testOne", "BTests/two()"])
        #expect(unreadable == 1)
    }

    @Test("the retries' flaky tests become sightings; steady ones do not")
    func fromRetries() {
        var flaky = TestCaseResult(suite: "ATests.A", name: "testOne", duration: 0.1, outcome: .passed)
        flaky.failedAttempts = ["boom"]
        let result = TestSuiteResult(
            suite: TestSuite(testTarget: "ATests", modules: ["A"]),
            testCases: [
                flaky, TestCaseResult(suite: "ATests.A", name: "testTwo", duration: 0.1, outcome: .passed),
            ],
            seconds: 0.2, runnerFailure: nil)
        let events = FlakyLog.events(
            retriedIn: [result], keys: ["ATests": "k"], commit: "c", host: "h", date: Self.now)
        #expect(
            events == [
                FlakyEvent(
                    test: "ATests.A/testOne", testTarget: "ATests", failed: 1, passed: 1, evidence: .retry,
                    key: "k",
                    commit: "c", hosts: ["h"], date: Self.now)
            ])
    }
}
