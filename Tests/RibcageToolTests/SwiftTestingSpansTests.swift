import RibcageTesting
import Testing

@Suite("Swift Testing's tests count by the time they covered together")
struct SwiftTestingSpansTests {
    /// An event stream line (version 0) as `swift test --event-stream-output-path` writes it.
    static func event(_ kind: String, _ testID: String, at absolute: Double) -> String {
        #"{"kind":"event","payload":{"instant":{"absolute":\#(absolute),"since1970":1795917519.4},"kind":"\#(kind)","#
            + #""messages":[],"testID":"\#(testID.replacingOccurrences(of: "/", with: #"\/"#))"},"version":0}"#
    }

    @Test("tests that ran at once count once; a gap between them does not count; each target apart")
    func coveredSpans() {
        let stream = [
            Self.event("testStarted", "AppTests.Suite/first()/A.swift:3:2", at: 100),
            Self.event("testStarted", "AppTests.Suite/second()/A.swift:9:2", at: 101),
            Self.event("testStarted", "KitTests.alone()/K.swift:1:1", at: 100.5),
            #"{"kind":"event","payload":{"kind":"issueRecorded","testID":"AppTests.Suite/second()"},"version":0}"#,
            Self.event("testEnded", "AppTests.Suite/second()/A.swift:9:2", at: 102),
            Self.event("testEnded", "AppTests.Suite/first()/A.swift:3:2", at: 104),
            Self.event("testEnded", "KitTests.alone()/K.swift:1:1", at: 100.75),
            Self.event("testStarted", "AppTests.Suite/third()/A.swift:20:2", at: 110),
            Self.event("testEnded", "AppTests.Suite/third()/A.swift:20:2", at: 111.5),
            "not JSON",
        ].joined(separator: "\n")
        let seconds = SwiftTestingSpans.coveredSeconds(inEventStream: stream)
        #expect(seconds == ["AppTests": 5.5, "KitTests": 0.25])
    }

    @Test("a test that started and never ended, or ended unseen, adds nothing")
    func unmatched() {
        let stream = [
            Self.event("testStarted", "AppTests.cut()/A.swift:1:1", at: 5),
            Self.event("testEnded", "AppTests.other()/A.swift:2:1", at: 9),
        ].joined(separator: "\n")
        #expect(SwiftTestingSpans.coveredSeconds(inEventStream: stream).isEmpty)
    }
}
