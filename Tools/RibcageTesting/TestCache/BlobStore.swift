import BlockingWork
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The two areas of Bazel's remote-cache protocol.
package enum CacheArea: String, Sendable {
    /// `/ac/<key>`: the action cache, an `ActionResult` per key.
    case actionCache = "ac"
    /// `/cas/<sha256>`: content-addressed blobs, each named by its own SHA-256.
    case contentStore = "cas"
}

/// Where the test cache keeps its blobs: a local folder or a server speaking Bazel's HTTP
/// remote-cache protocol.
package protocol BlobStore: Sendable {
    /// The store as it may appear in a log: a folder, or a URL without credentials.
    var displayName: String { get }
    /// The blob at `area/hash`, or nil when the store has none.
    ///
    /// - Parameter size: The blob's size in bytes, when the caller knows it (a `/cas` blob an
    ///   `ActionResult` names). A REAPI server names every blob by its digest and size, so
    ///   ``REAPIBlobStore`` cannot read a `/cas` blob without it; the other stores ignore it.
    func get(_ area: CacheArea, _ hash: String, size: Int64?) async throws -> Data?
    /// Stores `data` at `area/hash`, replacing what was there.
    func put(_ area: CacheArea, _ hash: String, _ data: Data) async throws
}

extension BlobStore {
    /// The blob at `area/hash`, its size unknown.
    package func get(_ area: CacheArea, _ hash: String) async throws -> Data? {
        try await get(area, hash, size: nil)
    }
}

/// The test cache's local folder, laid out like a Bazel disk cache: `ac/<key>`, `cas/<sha256>`.
///
/// Reads and writes run on a thread of their own (``DedicatedThread``): the folder may sit on a
/// slow or shared disk, and a blocked read must not hold a thread of the cooperative pool.
package struct LocalBlobStore: BlobStore {
    package var folder: URL

    /// A store in `folder`.
    package init(folder: URL) {
        self.folder = folder
    }

    /// `$XDG_CACHE_HOME/ribcage/test-cache`, or `~/.cache/ribcage/test-cache` when it is unset.
    package static func defaultFolder(environment: [String: String]) -> URL {
        let base =
            environment["XDG_CACHE_HOME"].flatMap {
                $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true)
            }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(
                ".cache", isDirectory: true)
        return base.appendingPathComponent("ribcage/test-cache", isDirectory: true)
    }

    package var displayName: String { folder.path }

    package func get(_ area: CacheArea, _ hash: String, size: Int64?) async throws -> Data? {
        let file = try location(area, hash)
        return try await DedicatedThread.run(named: "ribcage-test-cache-store") {
            guard FileManager.default.fileExists(atPath: file.path) else { return nil }
            return try Data(contentsOf: file)
        }
    }

    /// Writes to a temporary file and renames it into place, so a reader (another shard on this
    /// machine, or a run after a crash) sees the whole blob or none of it.
    package func put(_ area: CacheArea, _ hash: String, _ data: Data) async throws {
        let file = try location(area, hash)
        try await DedicatedThread.run(named: "ribcage-test-cache-store") {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let staging = file.deletingLastPathComponent().appendingPathComponent(
                ".\(hash).\(UUID().uuidString)")
            try data.write(to: staging)
            if rename(staging.path, file.path) != 0 {
                let reason = String(cString: strerror(errno))
                // The rename's failure is what the user must hear; a staging file left behind is
                // dot-named, never read as an entry, and overwritten by no one.
                try? FileManager.default.removeItem(at: staging)
                throw CocoaError(
                    .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "rename: \(reason)"])
            }
        }
    }

    private func location(_ area: CacheArea, _ hash: String) throws -> URL {
        // Keys and digests are hex; anything else must never reach the file system as a path.
        guard hash.count == 64, hash.allSatisfy(\.isHexDigit) else {
            throw TestCacheError.badHash(hash)
        }
        return folder.appendingPathComponent(area.rawValue, isDirectory: true).appendingPathComponent(hash)
    }
}

/// Why the test cache could not use an entry or a store. Every one of these is a warning: the
/// suite runs as if there were no cache.
package enum TestCacheError: Error, Equatable, CustomStringConvertible {
    /// A key or digest that is not 64 hex digits.
    case badHash(String)
    /// The server answered with an unexpected status.
    case httpStatus(Int, method: String, url: String)
    /// The server could not be reached, or did not answer in time.
    case unreachable(url: String, reason: String)
    /// An entry that does not hold together: a truncated or garbled body, a digest mismatch.
    case damagedEntry(String)
    /// `--cache-url` is neither an http(s) URL nor a REAPI server's address.
    case badURL(String)
    /// The server refuses this client the request (no permission, not implemented, an argument
    /// it will not take), and will refuse the next one too.
    case refused(String)
    /// The server failed one request with an error of its own.
    case serverError(String)

    package var description: String {
        switch self {
        case .badHash(let hash): "'\(hash)' is not a SHA-256 in hex"
        case .httpStatus(let status, let method, let url): "\(method) \(url) answered HTTP \(status)"
        case .unreachable(let url, let reason): "\(url) is unreachable: \(reason)"
        case .damagedEntry(let reason): "damaged entry: \(reason)"
        case .refused(let reason): reason
        case .serverError(let reason): reason
        case .badURL(let url):
            "--cache-url must be an http:// or https:// URL (Bazel's HTTP cache) or grpc://HOST:PORT or unix:PATH "
                + "(a REAPI server's cache), not '\(url)'"
        }
    }
}
