import Foundation
import Testing

@testable import RibcageTesting

/// The look-up's own reader of stored results gives what `JSONDecoder` gives, or nothing (and
/// then `JSONDecoder` reads the blob).
@Suite("Stored results read without JSONDecoder")
struct StoredEntryReaderTests {
    static func entry(
        testTarget: String = "CoreTests", failed: Int? = nil, commit: String? = "abc1234",
        recorded: [RecordedInput]? = [], cases: [TestCacheEntry.CaseOutcome]? = nil, seconds: Double = 1.25,
        date: Date = Date(timeIntervalSince1970: 1_795_000_000.125)
    ) -> TestCacheEntry {
        TestCacheEntry(
            testTarget: testTarget,
            key: TestCacheKey(testTarget: testTarget, parts: [], hash: String(repeating: "ab", count: 32)),
            passed: 3, failed: failed, skipped: 1, seconds: seconds, commit: commit, host: "ci-7", date: date,
            recordedInputs: recorded, cases: cases)
    }

    static func decodedByJSONDecoder(_ blob: Data) throws -> TestCacheEntry {
        try StoredEntry.decoder().decode(StoredEntry.self, from: blob).entry
    }

    @Test(
        "every field, names with quotes, backslashes, slashes, control characters and emoji, absent optionals, numbers of every size"
    )
    func readsWhatJSONDecoderReads() throws {
        let oddNames = [
            "Tests/Fixtures/value.txt", #"a "quoted" \ back\slash"#, "tab\tnew\nline\u{1}bell",
            "héllo wörld 🐶🐱", "/abs/path/with/slashes", "",
        ]
        let entries = [
            Self.entry(),
            Self.entry(failed: 0, commit: nil, recorded: nil, cases: nil),
            Self.entry(failed: 2, seconds: 0.000_017_432_853, date: Date(timeIntervalSince1970: 0)),
            Self.entry(
                testTarget: "Ünïcode🐶Tests",
                recorded: oddNames.enumerated().map { index, name in
                    RecordedInput(
                        kind: [.file, .listing, .executable, .product][index % 4], path: name,
                        digest: String(repeating: "0123456789abcdef", count: 4))
                },
                cases: oddNames.map { .init(test: "Suite/\($0)()", outcome: .passed, seconds: 12_345.678) }
                    + [
                        .init(test: "Suite/failed()", outcome: .failed, seconds: nil),
                        .init(test: "Suite/skipped()", outcome: .skipped, seconds: 1e-9),
                    ],
                seconds: 98_765.432_1, date: Date(timeIntervalSince1970: -1.5)),
        ]
        for entry in entries {
            let blob = try StoredEntry.blobs(of: entry).result
            let read = try #require(
                StoredEntryReader.entry(in: blob), "\(String(decoding: blob, as: UTF8.self))")
            #expect(read == (try Self.decodedByJSONDecoder(blob)))
            #expect(read.recordedInputs == entry.recordedInputs)
            #expect(read.cases == entry.cases)
        }
    }

    @Test("anything but what the encoder writes is left to JSONDecoder")
    func refusesOtherShapes() throws {
        let blob = try StoredEntry.blobs(of: Self.entry()).result
        let text = String(decoding: blob, as: UTF8.self)
        let others = [
            // An unknown field; a number as a string; an integer written otherwise.
            text.replacingOccurrences(of: #""host":"#, with: #""extra":1,"host":"#),
            text.replacingOccurrences(of: #""passed":3"#, with: #""passed":"3""#),
            text.replacingOccurrences(of: #""passed":3"#, with: #""passed":3.0"#),
            // Numbers Double reads and JSON does not have: a plus, a leading zero, a bare point.
            text.replacingOccurrences(of: #""seconds":1.25"#, with: #""seconds":+1.25"#),
            text.replacingOccurrences(of: #""seconds":1.25"#, with: #""seconds":01.25"#),
            text.replacingOccurrences(of: #""seconds":1.25"#, with: #""seconds":1."#),
            text.replacingOccurrences(of: #""seconds":1.25"#, with: #""seconds":.25"#),
            text.replacingOccurrences(of: #""seconds":1.25"#, with: #""seconds":-.25"#),
            text.replacingOccurrences(of: #""seconds":1.25"#, with: #""seconds":1.25e"#),
            // Trailing bytes; cut short; no parts blob; recipe 4's date as a string.
            text + "x",
            String(text.dropLast()),
            text.replacingOccurrences(of: #""keyParts":"#, with: #""keyParts2":"#),
            text.replacingOccurrences(of: #""date":"#, with: #""date":"2026-11-29T00:00:00Z","old":"#),
            // An escape JSON does not have; a lone surrogate.
            text.replacingOccurrences(of: #""commit":"abc1234""#, with: #""commit":"\q""#),
            text.replacingOccurrences(of: #""commit":"abc1234""#, with: #""commit":"\ud800""#),
        ]
        for other in others {
            #expect(other != text)
            #expect(StoredEntryReader.entry(in: Data(other.utf8)) == nil, "\(other)")
        }
    }
}
