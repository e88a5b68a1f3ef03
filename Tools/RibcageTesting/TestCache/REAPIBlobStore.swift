import Foundation
import RemoteExecution

/// The test cache's shared store on a Remote Execution API server (`--cache-url grpc://HOST:PORT`
/// or `unix:PATH`): `/ac/<key>` is the server's action cache under the key, `/cas/<sha256>` its
/// content-addressable storage. The entries are the bytes the local folder and an HTTP cache
/// hold, so the same result travels by either transport; and a server that runs the tests
/// (`--remote-executor`) keeps them beside its own actions' results.
///
/// One connection serves the whole run, opened at the first call. A server that cannot be
/// reached, breaks the connection or lets a call pass ``timeout`` is
/// ``TestCacheError/unreachable(url:reason:)``, and one that refuses this client is
/// ``TestCacheError/refused(_:)``: ``TestCache`` stops asking it (or, for a refused write,
/// stops writing to it) for the rest of the run.
package actor REAPIBlobStore: BlobStore {
    package nonisolated let endpoint: RemoteEndpoint
    package nonisolated let instanceName: String
    /// The longest one call may take.
    package nonisolated let timeout: Duration
    private var client: Task<RemoteExecutionClient, any Error>?

    /// A store on the server at `endpoint` (`grpc://HOST:PORT` or `unix:PATH`).
    ///
    /// - Throws: ``TestCacheError/badURL(_:)`` when `address` is neither.
    package init(address: String, instanceName: String = "", timeout: Duration = .seconds(10)) throws {
        do {
            endpoint = try RemoteEndpoint(address)
        } catch {
            throw TestCacheError.badURL(address)
        }
        self.instanceName = instanceName
        self.timeout = timeout
    }

    /// Whether `address` names a REAPI server rather than an HTTP cache.
    package static func isAddress(_ address: String) -> Bool {
        address.hasPrefix("grpc://") || address.hasPrefix("unix:")
    }

    package nonisolated var displayName: String {
        instanceName.isEmpty ? endpoint.description : "\(endpoint) (instance \(instanceName))"
    }

    /// The action digest a test cache key is kept under: the digest of a small blob that names
    /// the key. REAPI names an action by a digest and a size, and the key is a SHA-256 over the
    /// key's parts, not over one blob of its own; some servers (bazel-remote) refuse a size of 0
    /// with a hash that is not the empty blob's, so the digest is that of real bytes. The blob is
    /// never stored: servers key results by the digest without reading the action (casd and
    /// BuildGrid, tested).
    package static func actionDigest(ofKey key: String) -> BlobDigest {
        BlobDigest(of: Data("ribcage test cache key \(key)\n".utf8))
    }

    package func get(_ area: CacheArea, _ hash: String, size: Int64?) async throws -> Data? {
        try Self.checkHash(hash)
        switch area {
        case .actionCache:
            let action = Self.actionDigest(ofKey: hash)
            return try await call { client -> Data? in try await client.cachedResultBytes(of: action) }
        case .contentStore:
            guard let size else {
                throw TestCacheError.damagedEntry(
                    "cas/\(hash) is named without its size, which a REAPI server needs")
            }
            let digest = BlobDigest(hash: hash, size: size)
            return try await call { client -> Data? in
                do {
                    return try await client.read([digest])[digest]
                } catch RemoteExecutionError.missingBlobs {
                    return nil
                }
            }
        }
    }

    package func put(_ area: CacheArea, _ hash: String, _ data: Data) async throws {
        try Self.checkHash(hash)
        switch area {
        case .actionCache:
            let action = Self.actionDigest(ofKey: hash)
            try await call { client in try await client.storeResult(serialized: data, of: action) }
        case .contentStore:
            let digest = BlobDigest(of: data)
            guard digest.hash == hash else {
                throw TestCacheError.damagedEntry("a blob stored as cas/\(hash) hashes to \(digest.hash)")
            }
            _ = try await call { client in try await client.upload([digest: data]) }
        }
    }

    /// Closes the connection, if one was opened.
    package func close() async {
        guard let client else { return }
        self.client = nil
        // A connection that never opened has nothing to close: its failure was thrown to the
        // call that tried to open it, and told as a warning there.
        guard case .success(let opened) = await client.result else { return }
        await opened.close()
    }

    /// Runs `body` with the connection, opening it first if need be, and says what a failure
    /// means for the cache.
    private func call<Result: Sendable>(
        _ body: @Sendable (RemoteExecutionClient) async throws -> Result
    ) async throws -> Result {
        let opening: Task<RemoteExecutionClient, any Error>
        if let client {
            opening = client
        } else {
            let endpoint = endpoint
            let instanceName = instanceName
            let timeout = timeout
            opening = Task {
                try await RemoteExecutionClient.connect(
                    endpoint, instanceName: instanceName, callTimeout: timeout)
            }
            client = opening
        }
        do {
            let opened = try await opening.value
            return try await body(opened)
        } catch let error as RemoteExecutionError {
            throw Self.cacheError(error, endpoint: endpoint)
        }
    }

    /// A server gone or too slow is unreachable, so the cache stops asking it; one that refuses
    /// this client the request (no permission, not implemented, an argument it will not take)
    /// refuses the next one too; bytes that do not match their digest are a damaged entry;
    /// anything else is about this one request.
    static func cacheError(_ error: RemoteExecutionError, endpoint: RemoteEndpoint) -> TestCacheError {
        switch error {
        case .unreachable, .connectionLost, .timedOut, .cancelled:
            .unreachable(url: endpoint.description, reason: "\(error)")
        case .rejected(_, let code, _) where refusingCodes.contains(code):
            .refused("\(endpoint): \(error)")
        case .badDigest, .missingBlobs:
            .damagedEntry("\(endpoint): \(error)")
        default:
            .serverError("\(endpoint): \(error)")
        }
    }

    /// The gRPC statuses that say the server will not take this kind of request from this client.
    static let refusingCodes: Set<String> = [
        "INVALID_ARGUMENT", "PERMISSION_DENIED", "UNAUTHENTICATED", "UNIMPLEMENTED", "FAILED_PRECONDITION",
    ]

    private static func checkHash(_ hash: String) throws {
        guard hash.count == 64, hash.allSatisfy(\.isHexDigit) else { throw TestCacheError.badHash(hash) }
    }
}
