import ContentDigest
import Foundation

/// A ``TestCacheEntry`` as the cache keeps it: two blobs in `/cas`, both named by the entry's
/// `ActionResult`.
///
/// - The result (`ribcage-test-result.json`): the run's outcome and recorded inputs, its key by
///   hash only, and the digest of the second blob. Every look-up reads this one.
/// - The key's parts (`ribcage-test-key-parts.json`): every file of the suite's closure with its
///   digest, which only `--explain-cache` reads to say what changed.
///
/// The parts were inside the result until recipe 3: some 250 per suite, 17 MB for the 500
/// suites of a generated package, read, hashed and parsed by every look-up for nothing.
struct StoredEntry: Codable {
    /// A key as the result names it: by hash, without its parts.
    struct Key: Codable {
        var testTarget: String
        var hash: String
    }

    /// A blob named by its digest and size.
    struct Blob: Codable, Equatable {
        var hash: String
        var size: Int64
    }

    var testTarget: String
    var key: Key
    /// The blob holding the key's parts. Required: a result in the layout before it (parts
    /// inline, no `keyParts`) does not decode, so it can never be read as an entry.
    var keyParts: Blob
    var passed: Int
    var failed: Int?
    var skipped: Int
    var seconds: Double
    var commit: String?
    var host: String
    var date: Date
    var recordedInputs: [RecordedInput]?
    var cases: [TestCacheEntry.CaseOutcome]?

    /// The name, in the `ActionResult`, of the blob holding the run's result.
    static let resultFileName = "ribcage-test-result.json"
    /// The name, in the `ActionResult`, of the blob holding the key's parts.
    static let keyPartsFileName = "ribcage-test-key-parts.json"

    /// `entry` as stored, its key's parts in the blob `keyParts` names.
    init(_ entry: TestCacheEntry, keyParts: Blob) {
        testTarget = entry.testTarget
        key = Key(testTarget: entry.key.testTarget, hash: entry.key.hash)
        self.keyParts = keyParts
        passed = entry.passed
        failed = entry.failed
        skipped = entry.skipped
        seconds = entry.seconds
        commit = entry.commit
        host = entry.host
        date = entry.date
        recordedInputs = entry.recordedInputs
        cases = entry.cases
    }

    /// The entry, its key without parts (``TestCache/latestEntry(of:withParts:)`` reads them).
    var entry: TestCacheEntry {
        TestCacheEntry(
            testTarget: testTarget, key: TestCacheKey(testTarget: key.testTarget, parts: [], hash: key.hash),
            passed: passed, failed: failed, skipped: skipped, seconds: seconds, commit: commit, host: host,
            date: date, recordedInputs: recordedInputs, cases: cases)
    }

    /// The three blobs that store `entry`: its key's parts, its result, and the `ActionResult`
    /// naming both (the result first, as older readers and tools expect).
    static func blobs(of entry: TestCacheEntry) throws -> (parts: Data, result: Data, action: Data) {
        let parts = try encoder().encode(entry.key)
        let partsBlob = Blob(hash: SHA256.hex(parts), size: Int64(parts.count))
        let result = try encoder().encode(StoredEntry(entry, keyParts: partsBlob))
        let action = ActionResult(outputFiles: [
            .init(path: resultFileName, hash: SHA256.hex(result), size: Int64(result.count)),
            .init(path: keyPartsFileName, hash: partsBlob.hash, size: partsBlob.size),
        ])
        return (parts, result, action.serialized())
    }

    /// Dates as seconds since 1970, a number to read rather than an ISO 8601 string to parse in
    /// each of the hundreds of results a look-up reads (recipe 5; recipe 4 wrote strings).
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
