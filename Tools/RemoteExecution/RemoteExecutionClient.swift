import Foundation
import SwiftProtobuf
import Synchronization

/// Where a REAPI server listens: `grpc://HOST:PORT` (plaintext HTTP/2) or `unix:PATH`.
public enum RemoteEndpoint: Sendable, Equatable, CustomStringConvertible {
    case tcp(host: String, port: Int)
    case unixSocket(path: String)

    /// Parses `grpc://HOST:PORT` or `unix:PATH`.
    public init(_ text: String) throws(RemoteExecutionError) {
        if text.hasPrefix("unix:"), text.count > 5 {
            self = .unixSocket(path: String(text.dropFirst(5)))
            return
        }
        guard text.hasPrefix("grpc://"), let colon = text.lastIndex(of: ":"),
            let port = Int(text[text.index(after: colon)...]), (1...65_535).contains(port)
        else { throw .invalidEndpoint(text) }
        let host = String(text[text.index(text.startIndex, offsetBy: 7)..<colon])
        guard host.isEmpty == false else { throw .invalidEndpoint(text) }
        self = .tcp(host: host, port: port)
    }

    /// The address as the command line writes it.
    public var description: String {
        switch self {
        case .tcp(let host, let port): "grpc://\(host):\(port)"
        case .unixSocket(let path): "unix:\(path)"
        }
    }
}

/// A client of a REAPI v2 server (Bazel's Remote Execution API: buildbox-casd, BuildGrid,
/// bazel-remote for the caches): capabilities, the content-addressable storage, the action cache
/// and execution, with SHA-256 digests.
///
/// Every failure is a ``RemoteExecutionError``. A call fails at once when nothing listens (it
/// does not wait for the server to come up), and a call that breaks after the server answered
/// this client once is ``RemoteExecutionError/connectionLost(call:reason:)``.
public final class RemoteExecutionClient: Sendable {
    /// The server this client talks to.
    public let endpoint: RemoteEndpoint
    /// The server's instance name (`--remote-instance`), "" for the default instance.
    public let instanceName: String
    /// The most bytes of blobs one BatchUpdateBlobs or BatchReadBlobs request carries.
    public let batchBytes: Int
    /// The most digests one FindMissingBlobs request carries.
    public let findMissingBatch: Int
    private let connection: GRPCConnection
    /// The deadline of each call but Execute.
    private let callTimeout: Duration?
    /// Whether the server has answered this client: a broken call after that is a lost
    /// connection, before it an unreachable server.
    private let answered = Mutex(false)

    private init(
        endpoint: RemoteEndpoint, instanceName: String, connection: GRPCConnection, callTimeout: Duration?,
        batchBytes: Int, findMissingBatch: Int
    ) {
        self.endpoint = endpoint
        self.instanceName = instanceName
        self.connection = connection
        self.callTimeout = callTimeout
        self.batchBytes = batchBytes
        self.findMissingBatch = findMissingBatch
    }

    /// Connects to `endpoint`, runs `body` with a client, and closes the connection when it
    /// returns or throws.
    ///
    /// - Parameters:
    ///   - callTimeout: the deadline of each call but Execute, which runs as long as its action
    ///     (the action's own timeout bounds it); also the deadline of the connection's start.
    ///   - batchBytes: the payload of a batch request; under gRPC's usual 4 MiB message limit
    ///     with room for the digests.
    public static func withClient<Result: Sendable>(
        _ endpoint: RemoteEndpoint, instanceName: String = "", callTimeout: Duration? = .seconds(60),
        batchBytes: Int = 3 * 1_024 * 1_024, findMissingBatch: Int = 10_000,
        _ body: (RemoteExecutionClient) async throws -> Result
    ) async throws -> Result {
        let connection: GRPCConnection
        do {
            connection = try await GRPCConnection.connect(to: endpoint, timeout: callTimeout ?? .seconds(60))
        } catch {
            throw RemoteExecutionError.unreachable(endpoint: endpoint.description, reason: "\(error)")
        }
        let client = RemoteExecutionClient(
            endpoint: endpoint, instanceName: instanceName, connection: connection, callTimeout: callTimeout,
            batchBytes: batchBytes, findMissingBatch: findMissingBatch)
        do {
            let result = try await body(client)
            await connection.close()
            return result
        } catch {
            await connection.close()
            throw error
        }
    }

    /// The REAPI v2 method `method` of `service`, as a gRPC path.
    private static func path(_ service: String, _ method: String) -> String {
        "/build.bazel.remote.execution.v2.\(service)/\(method)"
    }

    // MARK: Capabilities

    /// The server's capabilities, after checking it speaks SHA-256.
    public func capabilities() async throws(RemoteExecutionError) -> REAPI.ServerCapabilities {
        var request = Build_Bazel_Remote_Execution_V2_GetCapabilitiesRequest()
        request.instanceName = instanceName
        let capabilities = try await perform("GetCapabilities") { () async throws(GRPCCallFailure) in
            try await connection.unary(
                Self.path("Capabilities", "GetCapabilities"), request, as: REAPI.ServerCapabilities.self,
                timeout: callTimeout)
        }
        let sha256 = Build_Bazel_Remote_Execution_V2_DigestFunction.Value.sha256
        let cacheSpeaksSHA256 = capabilities.cacheCapabilities.digestFunctions.contains(sha256)
        let executionSpeaksSHA256 =
            capabilities.hasExecutionCapabilities == false
            || capabilities.executionCapabilities.digestFunction == sha256
            || capabilities.executionCapabilities.digestFunctions.contains(sha256)
        guard cacheSpeaksSHA256, executionSpeaksSHA256 else { throw .unsupported("SHA-256 digests") }
        return capabilities
    }

    // MARK: Content-addressable storage

    /// The digests among `digests` the server does not hold, asked in batches of
    /// ``findMissingBatch``.
    public func findMissing(_ digests: some Collection<BlobDigest>) async throws(RemoteExecutionError) -> Set<
        BlobDigest
    > {
        let unique = Array(Set(digests)).sorted()
        var missing: Set<BlobDigest> = []
        for start in stride(from: 0, to: unique.count, by: findMissingBatch) {
            var request = Build_Bazel_Remote_Execution_V2_FindMissingBlobsRequest()
            request.instanceName = instanceName
            request.blobDigests = unique[start..<min(start + findMissingBatch, unique.count)].map(\.message)
            let response = try await perform("FindMissingBlobs") { () async throws(GRPCCallFailure) in
                try await connection.unary(
                    Self.path("ContentAddressableStorage", "FindMissingBlobs"), request,
                    as: Build_Bazel_Remote_Execution_V2_FindMissingBlobsResponse.self, timeout: callTimeout)
            }
            missing.formUnion(response.missingBlobDigests.map(BlobDigest.init))
        }
        return missing
    }

    /// Uploads those of `blobs` the server lacks; returns how many it uploaded. Each blob is
    /// checked against its digest first: a wrong key is the caller's bug, reported as
    /// ``RemoteExecutionError/badDigest(expected:actual:)``, never stored.
    @discardableResult
    public func upload(_ blobs: [BlobDigest: Data]) async throws(RemoteExecutionError) -> Int {
        for (digest, data) in blobs {
            let actual = BlobDigest(of: data)
            guard actual == digest else { throw .badDigest(expected: digest, actual: actual) }
        }
        let missing = try await findMissing(blobs.keys).sorted()
        try await uploadBatches(missing.compactMap { digest in blobs[digest].map { (digest, $0) } })
        return missing.count
    }

    private func uploadBatches(_ blobs: [(BlobDigest, Data)]) async throws(RemoteExecutionError) {
        for batch in batches(of: blobs.map { (digest: $0.0, payload: $0.1) }) {
            guard batch.allSatisfy({ $0.digest.size <= Int64(batchBytes) }) else {
                throw .unsupported("blobs over \(batchBytes) bytes in one batch (ByteStream is not used yet)")
            }
            var request = Build_Bazel_Remote_Execution_V2_BatchUpdateBlobsRequest()
            request.instanceName = instanceName
            request.requests = batch.map { blob in
                var entry = Build_Bazel_Remote_Execution_V2_BatchUpdateBlobsRequest.Request()
                entry.digest = blob.digest.message
                entry.data = blob.payload
                return entry
            }
            let response = try await perform("BatchUpdateBlobs") { () async throws(GRPCCallFailure) in
                try await connection.unary(
                    Self.path("ContentAddressableStorage", "BatchUpdateBlobs"), request,
                    as: Build_Bazel_Remote_Execution_V2_BatchUpdateBlobsResponse.self, timeout: callTimeout)
            }
            if let failed = response.responses.first(where: { $0.status.code != 0 }) {
                throw .rejected(
                    call: "BatchUpdateBlobs", code: Self.codeName(failed.status.code),
                    message: "\(BlobDigest(failed.digest)): \(failed.status.message)")
            }
        }
    }

    /// Reads `digests` from the server, in batches of at most ``batchBytes``, checking each
    /// blob's bytes against its digest.
    public func read(_ digests: some Collection<BlobDigest>) async throws(RemoteExecutionError)
        -> [BlobDigest: Data]
    {
        let unique = Array(Set(digests)).sorted()
        var blobs: [BlobDigest: Data] = [:]
        for batch in batches(of: unique.map { (digest: $0, payload: ()) }) {
            guard batch.allSatisfy({ $0.digest.size <= Int64(batchBytes) }) else {
                throw .unsupported("blobs over \(batchBytes) bytes in one batch (ByteStream is not used yet)")
            }
            var request = Build_Bazel_Remote_Execution_V2_BatchReadBlobsRequest()
            request.instanceName = instanceName
            request.digests = batch.map(\.digest.message)
            let response = try await perform("BatchReadBlobs") { () async throws(GRPCCallFailure) in
                try await connection.unary(
                    Self.path("ContentAddressableStorage", "BatchReadBlobs"), request,
                    as: Build_Bazel_Remote_Execution_V2_BatchReadBlobsResponse.self, timeout: callTimeout)
            }
            var absent: [BlobDigest] = []
            for entry in response.responses {
                let expected = BlobDigest(entry.digest)
                if entry.status.code == 5 {  // NOT_FOUND
                    absent.append(expected)
                    continue
                }
                guard entry.status.code == 0 else {
                    throw .rejected(
                        call: "BatchReadBlobs", code: Self.codeName(entry.status.code),
                        message: "\(expected): \(entry.status.message)")
                }
                let actual = BlobDigest(of: entry.data)
                guard actual == expected else { throw .badDigest(expected: expected, actual: actual) }
                blobs[expected] = entry.data
            }
            guard absent.isEmpty else { throw .missingBlobs(absent.sorted()) }
        }
        let unanswered = unique.filter { blobs[$0] == nil }
        guard unanswered.isEmpty else { throw .missingBlobs(unanswered) }
        return blobs
    }

    /// Splits `items` into runs whose sizes add up to at most ``batchBytes`` (a bigger item
    /// alone in its run).
    private func batches<Payload>(of items: [(digest: BlobDigest, payload: Payload)]) -> [[(
        digest: BlobDigest, payload: Payload
    )]] {
        var result: [[(digest: BlobDigest, payload: Payload)]] = []
        var current: [(digest: BlobDigest, payload: Payload)] = []
        var bytes: Int64 = 0
        for item in items {
            if current.isEmpty == false, bytes + item.digest.size > Int64(batchBytes) {
                result.append(current)
                current = []
                bytes = 0
            }
            current.append(item)
            bytes += item.digest.size
        }
        if current.isEmpty == false { result.append(current) }
        return result
    }

    // MARK: Action cache

    /// The cached result of `action`, or nil when the cache has none.
    public func cachedResult(of action: BlobDigest) async throws(RemoteExecutionError) -> REAPI.ActionResult?
    {
        var request = Build_Bazel_Remote_Execution_V2_GetActionResultRequest()
        request.instanceName = instanceName
        request.actionDigest = action.message
        return try await perform("GetActionResult") {
            () async throws(GRPCCallFailure) -> REAPI.ActionResult? in
            do throws(GRPCCallFailure) {
                return try await connection.unary(
                    Self.path("ActionCache", "GetActionResult"), request, as: REAPI.ActionResult.self,
                    timeout: callTimeout)
            } catch {
                // The action cache's answer for "no entry".
                if case .status(let status) = error, status.code == GRPCStatus.notFound { return nil }
                throw error
            }
        }
    }

    /// Stores `result` as the result of `action`.
    public func storeResult(_ result: REAPI.ActionResult, of action: BlobDigest)
        async throws(RemoteExecutionError)
    {
        var request = Build_Bazel_Remote_Execution_V2_UpdateActionResultRequest()
        request.instanceName = instanceName
        request.actionDigest = action.message
        request.actionResult = result
        _ = try await perform("UpdateActionResult") { () async throws(GRPCCallFailure) in
            try await connection.unary(
                Self.path("ActionCache", "UpdateActionResult"), request, as: REAPI.ActionResult.self,
                timeout: callTimeout)
        }
    }

    // MARK: Execution

    /// What an Execute returned: the action's result, and whether the server took it from its
    /// action cache rather than running the action.
    public struct Execution: Sendable {
        /// The action's outputs and exit code.
        public var result: REAPI.ActionResult
        /// Whether the server answered from its action cache instead of running the action.
        public var cachedResult: Bool
        /// The server's words about the run, if any.
        public var message: String
    }

    /// Runs `action` (its Action, Command and input root already uploaded) and waits until the
    /// server reports it done. A result from the action cache comes back the same way, with
    /// ``Execution/cachedResult`` set, unless `skipCacheLookup`. A command that exits non-zero is
    /// a result (``REAPI/ActionResult/exitCode``), not an error.
    public func execute(_ action: BlobDigest, skipCacheLookup: Bool = false)
        async throws(RemoteExecutionError)
        -> Execution
    {
        var request = Build_Bazel_Remote_Execution_V2_ExecuteRequest()
        request.instanceName = instanceName
        request.actionDigest = action.message
        request.skipCacheLookup = skipCacheLookup
        request.digestFunction = .sha256
        let operations = try await perform("Execute") { () async throws(GRPCCallFailure) in
            try await connection.serverStreaming(
                Self.path("Execution", "Execute"), request, as: Google_Longrunning_Operation.self,
                timeout: nil)
        }
        let operation = operations.first(where: \.done)
        guard let operation, operation.done else {
            throw .connectionLost(
                call: "Execute", reason: "the operation stream ended before the action was done")
        }
        switch operation.result {
        case .error(let status):
            throw .rejected(call: "Execute", code: Self.codeName(status.code), message: status.message)
        case .response(let any):
            let response: Build_Bazel_Remote_Execution_V2_ExecuteResponse
            do {
                response = try Build_Bazel_Remote_Execution_V2_ExecuteResponse(unpackingAny: any)
            } catch {
                throw .rejected(call: "Execute", code: "invalidResponse", message: "\(error)")
            }
            guard response.status.code == 0 else {
                throw .rejected(
                    call: "Execute", code: Self.codeName(response.status.code),
                    message: response.status.message)
            }
            return Execution(
                result: response.result, cachedResult: response.cachedResult, message: response.message)
        case nil:
            throw .rejected(
                call: "Execute", code: "invalidResponse", message: "a done operation with no result")
        }
    }

    // MARK: Errors

    /// Runs one call, turning how it failed into a ``RemoteExecutionError``.
    private func perform<Result: Sendable>(
        _ call: String, _ body: () async throws(GRPCCallFailure) -> Result
    ) async throws(RemoteExecutionError) -> Result {
        do {
            let result = try await body()
            answered.withLock { $0 = true }
            return result
        } catch {
            let wasAnswered = answered.withLock { $0 }
            switch error {
            case .unreachable(let reason):
                throw .unreachable(endpoint: endpoint.description, reason: reason)
            case .broken(let reason):
                throw wasAnswered
                    ? .connectionLost(call: call, reason: reason)
                    : .unreachable(endpoint: endpoint.description, reason: reason)
            case .status(let status) where status.code == GRPCStatus.unavailable:
                throw wasAnswered
                    ? .connectionLost(call: call, reason: status.message)
                    : .unreachable(endpoint: endpoint.description, reason: status.message)
            case .status(let status) where status.code == GRPCStatus.deadlineExceeded:
                throw .timedOut(call: call)
            case .timedOut:
                throw .timedOut(call: call)
            case .status(let status) where status.code == GRPCStatus.cancelled:
                throw .cancelled(call: call)
            case .cancelled:
                throw .cancelled(call: call)
            case .status(let status):
                throw .rejected(call: call, code: GRPCStatus.name(of: status.code), message: status.message)
            case .protocolViolation(let reason):
                throw .rejected(call: call, code: "invalidResponse", message: reason)
            }
        }
    }

    /// The name gRPC gives a status code.
    private static func codeName(_ code: Int32) -> String {
        GRPCStatus.name(of: code)
    }
}
