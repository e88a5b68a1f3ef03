import Foundation
import RibcageTesting

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What recording outcomes costs a green run in the test cache: each suite's entry stored with
/// its cases, plus the look-up of its key's red slot that tells a flaky test without a retry,
/// against the entry stored bare and no look-up (what the cache did before it kept outcomes).
///
/// The cases come from a real run's JUnit report (`ribcage test --junit-output`), so the names,
/// counts and durations are that package's own; the keys are the same small key on both sides,
/// so the difference is the outcomes alone.
struct OutcomeRecording {
    /// The cases of each test target, as the JUnit report gave them.
    let casesByTarget: [String: [TestCacheEntry.CaseOutcome]]

    init(junitReport: URL) throws {
        let parser = JUnitCases()
        guard let xml = XMLParser(contentsOf: junitReport) else {
            throw TestRunnerBenchmark.Failure(description: "could not open \(junitReport.path)")
        }
        xml.delegate = parser
        guard xml.parse() else {
            throw TestRunnerBenchmark.Failure(
                description:
                    "could not read \(junitReport.path): \(xml.parserError.map(String.init(describing:)) ?? "not XML")"
            )
        }
        casesByTarget = parser.casesByTarget
    }

    var caseCount: Int { casesByTarget.values.reduce(0) { $0 + $1.count } }

    /// The median extra seconds, over `repetitions` turns, that recording every suite's outcomes
    /// took over storing its entry bare.
    func medianExtraSeconds(repetitions: Int) async throws -> Double {
        var extra: [Double] = []
        for repetition in 0..<repetitions {
            // Alternating which side goes first, so a warm page cache favours neither.
            let order = repetition.isMultiple(of: 2) ? [true, false] : [false, true]
            var seconds: [Bool: Double] = [:]
            for withOutcomes in order {
                seconds[withOutcomes] = try await timeStoringAll(withOutcomes: withOutcomes)
            }
            extra.append((seconds[true] ?? 0) - (seconds[false] ?? 0))
        }
        extra.sort()
        return extra[extra.count / 2]
    }

    private func timeStoringAll(withOutcomes: Bool) async throws -> Double {
        try await ScratchFolder.with(prefix: "bench-outcomes") { folder in
            let cache = TestCache(local: LocalBlobStore(folder: folder), remote: nil, warn: { print($0) })
            let clock = ContinuousClock()
            let start = clock.now
            for (target, cases) in casesByTarget {
                let key = TestCacheKey(
                    testTarget: target,
                    parts: [.init(kind: .testTarget, name: target, digest: String(repeating: "0", count: 64))]
                )
                let entry = TestCacheEntry(
                    testTarget: target, key: key, passed: cases.count, skipped: 0, seconds: 1, commit: nil,
                    host: "bench", date: Date(), recordedInputs: [], cases: withOutcomes ? cases : nil)
                await cache.record(entry)
                if withOutcomes, await cache.lookUpRed(key) != nil {
                    throw TestRunnerBenchmark.Failure(
                        description: "a red run was found in an empty scratch cache")
                }
            }
            return Measurement.seconds(clock.now - start)
        }
    }
}

/// Reads `<testcase classname= name= time=>` and whether it failed or was skipped.
private final class JUnitCases: NSObject, XMLParserDelegate {
    var casesByTarget: [String: [TestCacheEntry.CaseOutcome]] = [:]
    private var target = ""
    private var current: TestCacheEntry.CaseOutcome?

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch element {
        case "testsuite":
            target = attributes["name"] ?? ""
        case "testcase":
            let name = [attributes["classname"], attributes["name"]].compactMap { $0 }.joined(separator: "/")
            current = .init(test: name, outcome: .passed, seconds: attributes["time"].flatMap(Double.init))
        case "failure", "error":
            current?.outcome = .failed
        case "skipped":
            current?.outcome = .skipped
        default:
            break
        }
    }

    func parser(
        _ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?
    ) {
        guard element == "testcase", let finished = current else { return }
        casesByTarget[target, default: []].append(finished)
        current = nil
    }
}
