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
    /// The local entries of `keys` that are whole and hold their key, by test target, read on all
    /// cores in one thread of their own, their keys without parts (which are not read).
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
                // A fast path only: whatever fails here (no entry, a damaged or foreign one, an
                // unreadable file) leaves the key out, and `lookUp(_:)` reads it again and warns.
                guard let action = try? local.read(.actionCache, key.hash),
                    let files = try? TestCache.entryFiles(inAction: action, key: key),
                    let blob = try? local.read(.contentStore, files.result.hash),
                    let entry = try? TestCache.entry(in: blob, file: files.result, key: key)
                else { return }
                entries.withLock { $0[key.testTarget] = entry }
            }
            return entries.withLock { $0 }
        }
        // No thread to read on: every key goes the slow way, which reports its own failures.
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
        guard Self.isDigest(hash) else { throw TestCacheError.badHash(hash) }
        return try Self.contents(ofFile: folder.path + "/" + area.rawValue + "/" + hash)
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
        var bytes = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileTreeDigests.ReadError(path: path, errno: errno)
            }
            bytes.append(contentsOf: buffer[..<count])
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
