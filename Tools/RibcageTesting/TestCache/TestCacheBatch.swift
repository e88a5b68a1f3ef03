import BlockingWork
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc

    /// `read(2)`, under a name the store's own `read` does not hide.
    private let systemRead = Glibc.read
#elseif canImport(Musl)
    import Musl

    private let systemRead = Musl.read
#elseif canImport(Darwin)
    import Darwin

    private let systemRead = Darwin.read
#endif

extension TestCache {
    /// What ``localEntries(_:)`` found.
    package struct LocalEntries: Sendable {
        /// The entries that are whole and hold their key, by test target.
        package var entries: [String: TestCacheEntry] = [:]
        /// The test targets whose "latest" pointer already names the key looked up, which
        /// ``recordLatest(_:alreadyNoted:)`` then leaves alone without reading it again.
        package var latestNoted: Set<String> = []
    }

    /// The local entries of `keys` that are whole and hold their key, by test target, read on all
    /// cores in one thread of their own, their keys without parts (which are not read); and
    /// which "latest" pointers already name their key, read in the same pass.
    ///
    /// A look-up of every suite reads three small files and checks one digest per suite; one
    /// thread and one actor hop per file made that most of a look-up's time. The keys are dealt
    /// out in a few chunks per core, each with one JSON decoder rather than one per entry. A key with no entry, or with one that does not hold together, is left out:
    /// ``lookUp(_:)`` then tries it (and the shared store) one by one, and says what was wrong.
    package nonisolated func localEntries(_ keys: [TestCacheKey]) async -> LocalEntries {
        let folder = local.folder.path
        let latest = folder + "/latest/"
        return await DedicatedThread.run(named: "ribcage-test-cache-store") {
            let found = Mutex(LocalEntries())
            let chunks = max(1, min(keys.count, ProcessInfo.processInfo.activeProcessorCount * 4))
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let decoder = StoredEntry.decoder()
                var mine = LocalEntries()
                for index in stride(from: chunk, to: keys.count, by: chunks) {
                    let key = keys[index]
                    // Unreadable is not noted: ``recordLatest(_:alreadyNoted:)`` tries it and says why.
                    if (try? LocalBlobStore.contents(ofFile: latest + key.testTarget)) == Data(key.hash.utf8)
                    {
                        mine.latestNoted.insert(key.testTarget)
                    }
                    // A fast path only: whatever fails here (no entry, a damaged or foreign one,
                    // an unreadable file) leaves the key out, and `lookUp(_:)` reads it again and
                    // warns.
                    guard let action = try? LocalBlobStore.read(.actionCache, key.hash, inFolder: folder),
                        let files = try? TestCache.entryFiles(inAction: action, key: key),
                        let blob = try? LocalBlobStore.read(
                            .contentStore, files.result.hash, inFolder: folder),
                        let entry = try? TestCache.entry(
                            in: blob, file: files.result, key: key, decoder: decoder)
                    else { continue }
                    mine.entries[key.testTarget] = entry
                }
                found.withLock { [mine] in
                    $0.entries.merge(mine.entries) { first, _ in first }
                    $0.latestNoted.formUnion(mine.latestNoted)
                }
            }
            return found.withLock { $0 }
        }
    }

    /// ``recordLatest(_:)`` for many keys, on one thread, leaving alone the files that already
    /// hold their key: on an unchanged tree a look-up writes nothing.
    ///
    /// - Parameter alreadyNoted: Test targets whose file is known to hold its key
    ///   (``LocalEntries/latestNoted``): not even read.
    package nonisolated func recordLatest(_ keys: [TestCacheKey], alreadyNoted: Set<String> = []) async throws
    {
        let keys = keys.filter { !alreadyNoted.contains($0.testTarget) }
        guard !keys.isEmpty else { return }
        let folder = local.folder.appendingPathComponent("latest", isDirectory: true)
        try await DedicatedThread.run(named: "ribcage-test-cache-store") {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for key in keys {
                let file = folder.appendingPathComponent(key.testTarget)
                let now = Data(key.hash.utf8)
                if try LocalBlobStore.contents(ofFile: folder.path + "/" + key.testTarget) == now { continue }
                try now.write(to: file, options: .atomic)
            }
        }
    }
}

extension LocalBlobStore {
    /// The blob at `area/hash`, or nil when there is none, read on the caller's thread (which
    /// must not be one of the cooperative pool's).
    func read(_ area: CacheArea, _ hash: String) throws -> Data? {
        try Self.read(area, hash, inFolder: folder.path)
    }

    /// ``read(_:_:)`` in the store whose folder's path is `folderPath`: a caller reading many
    /// blobs takes the path once (`URL.path` builds a new string each time it is asked).
    static func read(_ area: CacheArea, _ hash: String, inFolder folderPath: String) throws -> Data? {
        guard isDigest(hash) else { throw TestCacheError.badHash(hash) }
        return try contents(ofFile: folderPath + "/" + area.rawValue + "/" + hash)
    }

    /// The bytes of the file at `path`, or nil when there is none, read with `open` and `read`
    /// on a path string rather than through a `URL` and `Data(contentsOf:)`, which cost more
    /// than the reading for the small files a look-up reads a thousand of.
    static func contents(ofFile path: String) throws -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw FileTreeDigests.ReadError(path: path, errno: errno)
        }
        defer { close(descriptor) }
        // Left uninitialized (every byte used is first written by `read`): zeroing 16 KB for
        // each of the 1,500 small files a look-up reads is work for nothing.
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16 * 1024) { buffer in
            var bytes = Data()
            while true {
                let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
                if count == 0 { return bytes }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw FileTreeDigests.ReadError(path: path, errno: errno)
                }
                bytes.append(UnsafeBufferPointer(rebasing: buffer[..<count]))
            }
        }
    }

    /// Whether `hash` is 64 hex digits, checked on its bytes (`Character.isHexDigit` works a
    /// character at a time, through Unicode's tables).
    static func isDigest(_ hash: String) -> Bool {
        hash.utf8.count == 64
            && hash.utf8.allSatisfy {
                (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0)
            }
    }
}
