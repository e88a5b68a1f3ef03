import Foundation

/// How long each test target's Swift Testing tests were running, read from the event stream:
/// the time during which at least one of them was.
///
/// Swift Testing starts a target's tests all at once, so each test's own duration (what the
/// xUnit report gives) includes the time it waited for the others, for the main actor and for
/// the pool's two threads here: added up, 76 tests of a few milliseconds each came to 2,465 s in
/// a five-minute run. The time they covered together is what the target cost the run, and what
/// `--shard` balances by.
package enum SwiftTestingSpans {
    /// Seconds covered by each target's tests, keyed by test target; targets with no Swift
    /// Testing test are absent. Lines that are not a test's start or end are skipped.
    package static func coveredSeconds(inEventStream stream: String) -> [String: Double] {
        var started: [String: Double] = [:]
        var intervals: [String: [(start: Double, end: Double)]] = [:]
        for line in stream.split(separator: "\n")
        where line.contains("\"testStarted\"") || line.contains("\"testEnded\"") {
            guard let record = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let payload = record["payload"] as? [String: Any],
                let kind = payload["kind"] as? String,
                let testID = payload["testID"] as? String,
                let instant = (payload["instant"] as? [String: Any])?["absolute"] as? Double
            else { continue }
            switch kind {
            case "testStarted":
                started[testID] = instant
            case "testEnded":
                guard let start = started.removeValue(forKey: testID) else { continue }
                intervals[target(ofTestID: testID), default: []].append((start, instant))
            default:
                continue
            }
        }
        return intervals.mapValues(covered)
    }

    /// `Target.Suite/test()/File.swift:3:2` → `Target`.
    static func target(ofTestID id: String) -> String {
        String(id.prefix { $0 != "." && $0 != "/" })
    }

    /// The length of the union of `intervals`.
    static func covered(_ intervals: [(start: Double, end: Double)]) -> Double {
        var total = 0.0
        var current: (start: Double, end: Double)?
        for interval in intervals.sorted(by: { $0.start < $1.start }) {
            if let open = current, interval.start <= open.end {
                current = (open.start, max(open.end, interval.end))
            } else {
                if let open = current { total += open.end - open.start }
                current = interval
            }
        }
        if let open = current { total += open.end - open.start }
        return total
    }
}
