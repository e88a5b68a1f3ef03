import BlockingWork
import ContentDigest
import Foundation
import RibcagePackage

/// An entry as read from a store, with the bytes it was read from, so a shared hit can be kept
/// locally exactly as the server holds it.
struct FoundEntry: Sendable {
    var entry: TestCacheEntry
    /// The `ActionResult`'s bytes.
    var action: Data
    /// The result blob's bytes, and the output file naming it.
    var result: Data
    var resultFile: ActionResult.OutputFile
    /// The output file naming the key's parts, if the action names one.
    var partsFile: ActionResult.OutputFile?
}

extension TestCache {
    /// Reads the `ActionResult` at `ac/<key>`, then the result it names in `cas`, checking the
    /// result's digest, size and key, so a truncated, swapped or garbled blob is never trusted.
    /// The key's parts are not read.
    func readEntry(for key: TestCacheKey, in store: any BlobStore, slot: String? = nil) async throws
        -> FoundEntry?
    {
        let actionKey = slot ?? key.hash
        guard let actionData = try await store.get(.actionCache, actionKey) else { return nil }
        let files = try Self.entryFiles(inAction: actionData, key: key, actionKey: actionKey)
        guard let blob = try await store.get(.contentStore, files.result.hash, size: files.result.size) else {
            throw TestCacheError.damagedEntry(
                "cas/\(files.result.hash), named by ac/\(actionKey), is missing")
        }
        let entry = try Self.entry(in: blob, file: files.result, key: key, greenSlot: slot == nil)
        return FoundEntry(
            entry: entry, action: actionData, result: blob, resultFile: files.result, partsFile: files.parts)
    }

    /// The result file and the key's parts file an `ActionResult` names.
    static func entryFiles(inAction actionData: Data, key: TestCacheKey, actionKey: String? = nil) throws
        -> (result: ActionResult.OutputFile, parts: ActionResult.OutputFile?)
    {
        let actionKey = actionKey ?? key.hash
        let action: ActionResult
        do {
            action = try ActionResult(serialized: actionData)
        } catch {
            throw TestCacheError.damagedEntry("ac/\(actionKey) is not an ActionResult (\(error))")
        }
        guard action.exitCode == 0,
            let file = action.outputFiles.first(where: { $0.path == StoredEntry.resultFileName })
        else { throw TestCacheError.damagedEntry("ac/\(actionKey) names no \(StoredEntry.resultFileName)") }
        return (file, action.outputFiles.first { $0.path == StoredEntry.keyPartsFileName })
    }

    /// The entry in `blob`, its key without parts, once its size and digest are those `file`
    /// names and it holds `key`.
    ///
    /// - Parameters:
    ///   - greenSlot: Read from the key's own action, which holds green runs only: an entry
    ///     there with failed tests is refused, whatever a server was sent.
    ///   - decoder: ``StoredEntry/decoder()``'s, when the caller reads many entries.
    static func entry(
        in blob: Data, file: ActionResult.OutputFile, key: TestCacheKey, greenSlot: Bool = true,
        decoder: JSONDecoder = StoredEntry.decoder()
    ) throws -> TestCacheEntry {
        guard blob.count == file.size, SHA256.hex(blob) == file.hash else {
            throw TestCacheError.damagedEntry(
                "cas/\(file.hash) has \(blob.count) bytes that do not hash to its name (expected \(file.size))"
            )
        }
        let entry: TestCacheEntry
        do {
            entry =
                try StoredEntryReader.entry(in: blob) ?? decoder.decode(StoredEntry.self, from: blob).entry
        } catch {
            // Also an entry of the layout before recipe 4, its parts inline, or one of recipe 4,
            // its date a string: never read as one (and under another key besides).
            throw TestCacheError.damagedEntry("cas/\(file.hash) is not a ribcage test result")
        }
        guard entry.key.hash == key.hash, entry.testTarget == key.testTarget else {
            throw TestCacheError.damagedEntry("cas/\(file.hash) holds another key's result")
        }
        guard !greenSlot || (entry.failed ?? 0) == 0 else {
            throw TestCacheError.damagedEntry(
                "cas/\(file.hash), a green key's entry, holds a run with failed tests")
        }
        return entry
    }

    /// The key's parts, then the result, then the action that names both: a reader never finds
    /// an action whose content is still missing (and bazel-remote refuses such an action).
    func write(_ entry: TestCacheEntry, to store: any BlobStore, slot: String? = nil) async throws {
        let blobs = try StoredEntry.blobs(of: entry)
        try await store.put(.contentStore, SHA256.hex(blobs.parts), blobs.parts)
        try await store.put(.contentStore, SHA256.hex(blobs.result), blobs.result)
        try await store.put(.actionCache, slot ?? entry.key.hash, blobs.action)
    }

    /// The key `found` was stored under, with its parts, from `store`; nil when the store lacks
    /// them or they do not hold together (the entry was stored without them, or they were lost).
    func keyParts(of found: FoundEntry, in store: any BlobStore) async throws -> TestCacheKey? {
        guard let file = found.partsFile,
            let blob = try await store.get(.contentStore, file.hash, size: file.size),
            blob.count == file.size, SHA256.hex(blob) == file.hash
        else { return nil }
        let key: TestCacheKey
        do {
            key = try StoredEntry.decoder().decode(TestCacheKey.self, from: blob)
        } catch {
            throw TestCacheError.damagedEntry("cas/\(file.hash) is not a test cache key")
        }
        guard key.hash == found.entry.key.hash, key.testTarget == found.entry.testTarget else {
            throw TestCacheError.damagedEntry("cas/\(file.hash) holds another key's parts")
        }
        return key
    }

    // MARK: - The last key per test target, for --explain-cache and --sandbox

    private func latestFile(_ testTarget: String) -> URL {
        local.folder.appendingPathComponent("latest", isDirectory: true).appendingPathComponent(testTarget)
    }

    /// Remembers `key` as the last one stored or found for its test target on this machine.
    package func recordLatest(_ key: TestCacheKey) async throws {
        let file = latestFile(key.testTarget)
        try await DedicatedThread.run(named: "ribcage-test-cache-store") {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(key.hash.utf8).write(to: file, options: .atomic)
        }
    }

    /// The entry of the last key stored or found for `testTarget` on this machine.
    ///
    /// - Parameter withParts: Read its key's parts too (for `--explain-cache`); when they are
    ///   not kept here, the entry's key has none.
    package func latestEntry(of testTarget: String, withParts: Bool = false) async throws -> TestCacheEntry? {
        let file = latestFile(testTarget)
        let pointed: Data? = try await DedicatedThread.run(named: "ribcage-test-cache-store") {
            guard FileManager.default.fileExists(atPath: file.path) else { return nil }
            return try Data(contentsOf: file)
        }
        guard let pointed else { return nil }
        let hash = String(decoding: pointed, as: UTF8.self)
        guard hash.count == 64, hash.allSatisfy(\.isHexDigit) else { return nil }
        let probe = TestCacheKey(testTarget: testTarget, parts: [], hash: hash)
        guard var found = try await readEntry(for: probe, in: local) else { return nil }
        if withParts, let key = try await keyParts(of: found, in: local) { found.entry.key = key }
        return found.entry
    }
}
