import Dispatch
import Foundation
import Synchronization

extension TestCacheEntry {
    /// An entry as a look-up reads it: its key's hash without the key's parts.
    struct WithoutParts: Decodable {
        struct Key: Decodable {
            var testTarget: String
            var hash: String
        }

        var testTarget: String
        var key: Key
        var passed: Int
        var failed: Int?
        var skipped: Int
        var seconds: Double
        var commit: String?
        var host: String
        var date: Date
        var recordedInputs: [RecordedInput]?

        var entry: TestCacheEntry {
            TestCacheEntry(
                testTarget: testTarget,
                key: TestCacheKey(testTarget: key.testTarget, parts: [], hash: key.hash),
                passed: passed, failed: failed, skipped: skipped, seconds: seconds, commit: commit,
                host: host, date: date,
                recordedInputs: recordedInputs)
        }
    }
}

extension TestCache {
    /// The local entries of `keys` that are whole and hold their key, by test target, read on all
    /// cores in one thread of their own, their keys without parts.
    ///
    /// A look-up of every suite reads two small files and checks one digest per suite; one
    /// thread and one actor hop per file made that most of a look-up's time. A key with no
    /// entry, or with one that does not hold together, is left out: ``lookUp(_:)`` then tries it
    /// (and the shared store) one by one, and says what was wrong.
    package nonisolated func localEntries(_ keys: [TestCacheKey]) async -> [String: TestCacheEntry] {
        let local = local
        let found = try? await DedicatedThread.run(named: "ribcage-test-cache-store") {
            let entries = Mutex<[String: TestCacheEntry]>([:])
            DispatchQueue.concurrentPerform(iterations: keys.count) { index in
                let key = keys[index]
                guard let action = try? local.read(.actionCache, key.hash),
                    let file = try? TestCache.entryFile(inAction: action, key: key),
                    let blob = try? local.read(.contentStore, file.hash),
                    let entry = try? TestCache.entry(in: blob, file: file, key: key, withParts: false)
                else { return }
                entries.withLock { $0[key.testTarget] = entry }
            }
            return entries.withLock { $0 }
        }
        return found ?? [:]
    }

    /// ``recordLatest(_:)`` for many keys, on one thread, leaving alone the files that already
    /// hold their key: on an unchanged tree a look-up writes nothing.
    package nonisolated func recordLatest(_ keys: [TestCacheKey]) async throws {
        let folder = local.folder.appendingPathComponent("latest", isDirectory: true)
        try await DedicatedThread.run(named: "ribcage-test-cache-store") {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for key in keys {
                let file = folder.appendingPathComponent(key.testTarget)
                let now = Data(key.hash.utf8)
                if FileManager.default.contents(atPath: file.path) == now { continue }
                try now.write(to: file, options: .atomic)
            }
        }
    }
}

extension LocalBlobStore {
    /// The blob at `area/hash`, or nil, read on the caller's thread (which must not be one of the
    /// cooperative pool's).
    func read(_ area: CacheArea, _ hash: String) throws -> Data? {
        guard hash.count == 64, hash.allSatisfy(\.isHexDigit) else { throw TestCacheError.badHash(hash) }
        let file = folder.appendingPathComponent(area.rawValue, isDirectory: true).appendingPathComponent(
            hash)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        return try Data(contentsOf: file)
    }
}
