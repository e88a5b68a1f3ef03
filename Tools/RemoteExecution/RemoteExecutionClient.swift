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
    let connection: GRPCConnection
    /// The deadline of each call but Execute.
    let callTimeout: Duration?

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
    ///   - callTimeout: the deadline of each call but Execute (which has its own, see
    ///     ``execute(_:skipCacheLookup:timeout:)``); also the deadline of the connection's start.
    ///   - batchBytes: the payload of a batch request; under gRPC's usual 4 MiB message limit
    ///     with room for the digests.
    ///   - keepalive: how often the connection sends a PING when it could be idle, and how long
    ///     an answer may take before the connection is given up: a server that vanished without
    ///     closing it (a machine frozen, a network split) ends the calls waiting on it. The
    ///     interval is over five minutes because gRPC's servers (C++ and Go: casd, BuildGrid,
    ///     Buildbarn) by default allow a client one PING per five minutes on a quiet connection
    ///     and close it with GOAWAY ENHANCE_YOUR_CALM after a few more: a 30 s PING ended a
    ///     two-minute Execute on BuildGrid that way.
    public static func withClient<Result: Sendable>(
        _ endpoint: RemoteEndpoint, instanceName: String = "", callTimeout: Duration? = .seconds(60),
        batchBytes: Int = 3 * 1_024 * 1_024, findMissingBatch: Int = 10_000,
        keepalive: (interval: Duration, timeout: Duration) = (.seconds(310), .seconds(20)),
        _ body: (RemoteExecutionClient) async throws -> Result
    ) async throws -> Result {
        let client = try await connect(
            endpoint, instanceName: instanceName, callTimeout: callTimeout, batchBytes: batchBytes,
            findMissingBatch: findMissingBatch, keepalive: keepalive)
        do {
            let result = try await body(client)
            await client.close()
            return result
        } catch {
            await client.close()
            throw error
        }
    }

    /// Connects to `endpoint` for a client that outlives one scope (a cache store used all
    /// through a run); its owner calls ``close()``. The parameters are
    /// ``withClient(_:instanceName:callTimeout:batchBytes:findMissingBatch:keepalive:_:)``'s.
    public static func connect(
        _ endpoint: RemoteEndpoint, instanceName: String = "", callTimeout: Duration? = .seconds(60),
        batchBytes: Int = 3 * 1_024 * 1_024, findMissingBatch: Int = 10_000,
        keepalive: (interval: Duration, timeout: Duration) = (.seconds(310), .seconds(20))
    ) async throws(RemoteExecutionError) -> RemoteExecutionClient {
        let connection: GRPCConnection
        do {
            connection = try await GRPCConnection.connect(
                to: endpoint, timeout: callTimeout ?? .seconds(60), keepaliveInterval: keepalive.interval,
                keepaliveTimeout: keepalive.timeout)
        } catch {
            throw .unreachable(endpoint: endpoint.description, reason: error.reason)
        }
        return RemoteExecutionClient(
            endpoint: endpoint, instanceName: instanceName, connection: connection, callTimeout: callTimeout,
            batchBytes: batchBytes, findMissingBatch: findMissingBatch)
    }

    /// Closes the connection; calls made after it fail.
    public func close() async {
        await connection.close()
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

    /// Uploads those of `blobs` the server lacks; returns how many it uploaded. Blobs up to
    /// ``batchBytes`` go in BatchUpdateBlobs requests, larger ones one by one through
    /// ByteStream.Write. Each blob is checked against its digest first: a wrong key is the
    /// caller's bug, reported as ``RemoteExecutionError/badDigest(expected:actual:)``, never
    /// stored.
    @discardableResult
    public func upload(_ blobs: [BlobDigest: Data]) async throws(RemoteExecutionError) -> Int {
        try await upload(blobs.mapValues { BlobSource.bytes($0) })
    }

    /// Uploads those of `blobs` the server lacks, reading each file only if it must be sent;
    /// returns how many it uploaded. Bytes in memory are checked against their digest first
    /// (``RemoteExecutionError/badDigest(expected:actual:)``); a file is not hashed again, since
    /// its digest was taken when the tree was made: one that is no longer its digest's size is
    /// ``RemoteExecutionError/unreadableUpload(_:)``, and the server checks every blob it stores.
    /// A large file streams through ByteStream.Write a chunk at a time.
    @discardableResult
    public func upload(_ blobs: [BlobDigest: BlobSource]) async throws(RemoteExecutionError) -> Int {
        for (digest, source) in blobs {
            guard case .bytes(let data) = source else { continue }
            let actual = BlobDigest(of: data)
            guard actual == digest else { throw .badDigest(expected: digest, actual: actual) }
        }
        let missing = try await findMissing(blobs.keys).sorted()
        // A blob too big for a batch request goes alone through ByteStream.Write, in chunks.
        let (large, small) = missing.reduce(into: ([BlobDigest](), [BlobDigest]())) { split, digest in
            if digest.size > Int64(batchBytes) { split.0.append(digest) } else { split.1.append(digest) }
        }
        for batch in batches(
            of: small.compactMap { digest in blobs[digest].map { (digest: digest, payload: $0) } })
        {
            var loaded: [(BlobDigest, Data)] = []
            for (digest, source) in batch {
                switch source {
                case .bytes(let data): loaded.append((digest, data))
                case .file(let path):
                    let data = try await BlobFile.withFile(path) { file async throws(RemoteExecutionError) in
                        try await file.readAll(digest.size)
                    }
                    loaded.append((digest, data))
                }
            }
            try await uploadBatch(loaded)
        }
        for digest in large {
            if let source = blobs[digest] { try await write(source, as: digest) }
        }
        return missing.count
    }

    /// Uploads one blob through ByteStream.Write, in chunks of ``byteStreamChunk`` bytes read
    /// from its source as the stream takes them.
    private func write(_ source: BlobSource, as digest: BlobDigest) async throws(RemoteExecutionError) {
        // The upload's own name: a fresh identifier, then the blob it must become.
        let resource = Self.resourceName(
            instanceName, "uploads/\(UUID().uuidString.lowercased())/blobs/\(digest.hash)/\(digest.size)")
        // The deadline grows with the blob: a second a MiB on top of a call's.
        let timeout = callTimeout.map { $0 + .seconds(digest.size >> 20) }
        let response: Google_Bytestream_WriteResponse
        do {
            response = try await stream(source, to: resource, as: digest, timeout: timeout)
        } catch {
            // A server may end a Write early when another client has just stored the same blob
            // (REAPI allows it), which breaks the stream under the chunks still being sent: the
            // blob being there now is the upload's success.
            switch error {
            case .connectionLost, .rejected:
                if let missing = try? await findMissing([digest]), missing.isEmpty { return }
            default: break
            }
            throw error
        }
        // The full size, or -1, which REAPI allows for a blob another client completed.
        guard response.committedSize == digest.size || response.committedSize == -1 else {
            throw .rejected(
                call: "ByteStream.Write", code: "invalidResponse",
                message: "\(digest): the server committed \(response.committedSize) of \(digest.size) bytes")
        }
    }

    /// ByteStream.Write of `source` as `resource`, a chunk at a time.
    private func stream(_ source: BlobSource, to resource: String, as digest: BlobDigest, timeout: Duration?)
        async throws(RemoteExecutionError) -> Google_Bytestream_WriteResponse
    {
        let response: Google_Bytestream_WriteResponse
        switch source {
        case .bytes(let data):
            response = try await write(resource, digest: digest, timeout: timeout) {
                offset, count async throws(RemoteExecutionError) in
                data.subdata(in: data.startIndex + Int(offset)..<data.startIndex + Int(offset) + count)
            }
        case .file(let path):
            response = try await BlobFile.withFile(path) { file async throws(RemoteExecutionError) in
                try await write(resource, digest: digest, timeout: timeout) {
                    offset, count async throws(RemoteExecutionError) in
                    let chunk = try await file.read(at: offset, count: count)
                    guard chunk.count == count else { throw BlobFile.changed(path, expected: digest.size) }
                    return chunk
                }
            }
        }
        return response
    }

    /// ByteStream.Write of `resource`, whose chunks `chunk(offset, count)` gives one at a time.
    private func write(
        _ resource: String, digest: BlobDigest, timeout: Duration?,
        chunk: @escaping @Sendable (Int64, Int) async throws(RemoteExecutionError) -> Data
    ) async throws(RemoteExecutionError) -> Google_Bytestream_WriteResponse {
        let progress = WriteProgress()
        return try await perform("ByteStream.Write") { () async throws(GRPCCallFailure) in
            try await connection.clientStreaming(
                "/google.bytestream.ByteStream/Write",
                next: { () async throws -> Google_Bytestream_WriteRequest? in
                    guard let offset = progress.claim(Self.byteStreamChunk, of: digest.size) else {
                        return nil
                    }
                    var request = Google_Bytestream_WriteRequest()
                    // Only the first request must name the resource.
                    if offset == 0 { request.resourceName = resource }
                    request.writeOffset = offset
                    let count = Int(min(Int64(Self.byteStreamChunk), digest.size - offset))
                    request.data = try await chunk(offset, count)
                    request.finishWrite = offset + Int64(count) == digest.size
                    return request
                }, as: Google_Bytestream_WriteResponse.self, timeout: timeout)
        }
    }

    /// Reads one blob through ByteStream.Read and checks it against its digest.
    private func readStream(_ digest: BlobDigest) async throws(RemoteExecutionError) -> Data {
        var request = Google_Bytestream_ReadRequest()
        request.resourceName = Self.resourceName(instanceName, "blobs/\(digest.hash)/\(digest.size)")
        let chunks: [Google_Bytestream_ReadResponse]
        do throws(RemoteExecutionError) {
            chunks = try await perform("ByteStream.Read") { () async throws(GRPCCallFailure) in
                try await connection.serverStreaming(
                    "/google.bytestream.ByteStream/Read", request, as: Google_Bytestream_ReadResponse.self,
                    timeout: callTimeout)
            }
        } catch .rejected(_, "notFound", _) {
            throw .missingBlobs([digest])
        }
        let data = chunks.reduce(into: Data()) { $0.append($1.data) }
        let actual = BlobDigest(of: data)
        guard actual == digest else { throw .badDigest(expected: digest, actual: actual) }
        return data
    }

    /// A ByteStream resource name: `path` under the instance, when there is one.
    private static func resourceName(_ instanceName: String, _ path: String) -> String {
        instanceName.isEmpty ? path : "\(instanceName)/\(path)"
    }

    /// A batch entry's bytes beyond the blob's: the digest (64 hex digits, a size) and the
    /// fields' tags and lengths, rounded up.
    static let batchEntryOverhead: Int64 = 100

    /// The bytes of one ByteStream message: well under gRPC's usual 4 MiB message limit.
    static let byteStreamChunk = 1_024 * 1_024

    /// One BatchUpdateBlobs request of `blobs`.
    private func uploadBatch(_ blobs: [(BlobDigest, Data)]) async throws(RemoteExecutionError) {
        var request = Build_Bazel_Remote_Execution_V2_BatchUpdateBlobsRequest()
        request.instanceName = instanceName
        request.requests = blobs.map { digest, data in
            var entry = Build_Bazel_Remote_Execution_V2_BatchUpdateBlobsRequest.Request()
            entry.digest = digest.message
            entry.data = data
            return entry
        }
        let response = try await perform("BatchUpdateBlobs") { () async throws(GRPCCallFailure) in
            try await connection.unary(
                Self.path("ContentAddressableStorage", "BatchUpdateBlobs"), request,
                as: Build_Bazel_Remote_Execution_V2_BatchUpdateBlobsResponse.self, timeout: callTimeout)
        }
        if let failed = response.responses.first(where: { $0.status.code != 0 }) {
            throw .rejected(
                call: "BatchUpdateBlobs", code: GRPCStatus.name(of: failed.status.code),
                message: "\(BlobDigest(failed.digest)): \(failed.status.message)")
        }
    }

    /// Reads `digests` from the server, in batches of at most ``batchBytes`` (a larger blob
    /// through ByteStream.Read), checking each blob's bytes against its digest.
    public func read(_ digests: some Collection<BlobDigest>) async throws(RemoteExecutionError)
        -> [BlobDigest: Data]
    {
        let unique = Array(Set(digests)).sorted()
        var blobs: [BlobDigest: Data] = [:]
        // A blob too big for a batch comes alone through ByteStream.Read.
        for digest in unique where digest.size > Int64(batchBytes) {
            blobs[digest] = try await readStream(digest)
        }
        let small = unique.filter { $0.size <= Int64(batchBytes) }
        for batch in batches(of: small.map { (digest: $0, payload: ()) }) {
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
                        call: "BatchReadBlobs", code: GRPCStatus.name(of: entry.status.code),
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

    /// Splits `items` into runs whose entries add up to at most ``batchBytes`` (a bigger item
    /// alone in its run).
    private func batches<Payload>(of items: [(digest: BlobDigest, payload: Payload)]) -> [[(
        digest: BlobDigest, payload: Payload
    )]] {
        var result: [[(digest: BlobDigest, payload: Payload)]] = []
        var current: [(digest: BlobDigest, payload: Payload)] = []
        var bytes: Int64 = 0
        for item in items {
            // Each entry carries its digest and protobuf framing besides its bytes: 60,000
            // blobs of 50 bytes would otherwise make a 5.5 MB request from a "3 MiB" batch.
            let entryBytes = item.digest.size + Self.batchEntryOverhead
            if current.isEmpty == false, bytes + entryBytes > Int64(batchBytes) {
                result.append(current)
                current = []
                bytes = 0
            }
            current.append(item)
            bytes += entryBytes
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

    /// ``cachedResult(of:)`` in its wire form, for a caller that keeps results as bytes (the
    /// test cache, whose local folder and HTTP server hold the same `ActionResult`s).
    public func cachedResultBytes(of action: BlobDigest) async throws(RemoteExecutionError) -> Data? {
        guard let result = try await cachedResult(of: action) else { return nil }
        do {
            return try result.serializedBytes()
        } catch {
            throw .unsupported("an ActionResult that cannot be serialized again (\(error))")
        }
    }

    /// Stores the `ActionResult` whose wire form is `serialized` as the result of `action`.
    ///
    /// - Throws: ``RemoteExecutionError/unreadableUpload(_:)`` when `serialized` is not an
    ///   `ActionResult`, before anything is sent.
    public func storeResult(serialized: Data, of action: BlobDigest) async throws(RemoteExecutionError) {
        let result: REAPI.ActionResult
        do {
            result = try REAPI.ActionResult(serializedBytes: serialized)
        } catch {
            throw .unreadableUpload("\(serialized.count) bytes that are not an ActionResult (\(error))")
        }
        try await storeResult(result, of: action)
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
        /// Whether the action ran past its own timeout and was stopped: ``result`` then holds
        /// what it had written, as REAPI allows.
        public var actionTimedOut = false

        /// An execution that ended with `result`: from the cache, or run (and maybe stopped at
        /// its timeout).
        public init(
            result: REAPI.ActionResult, cachedResult: Bool, message: String, actionTimedOut: Bool = false
        ) {
            self.result = result
            self.cachedResult = cachedResult
            self.message = message
            self.actionTimedOut = actionTimedOut
        }
    }

    /// Runs `action` (its Action, Command and input root already uploaded) and waits until the
    /// server reports it done. A result from the action cache comes back the same way, with
    /// ``Execution/cachedResult`` set, unless `skipCacheLookup`. A command that exits non-zero is
    /// a result (``REAPI/ActionResult/exitCode``), not an error, and so is one the worker stopped
    /// at the action's timeout (``Execution/actionTimedOut``).
    ///
    /// - Parameter timeout: how long to wait for the whole execution, queueing included; give
    ///   the action's own timeout and a margin. Nil waits as long as the connection lives (its
    ///   PINGs still end it when the server vanishes).
    public func execute(_ action: BlobDigest, skipCacheLookup: Bool = false, timeout: Duration? = nil)
        async throws(RemoteExecutionError)
        -> Execution
    {
        var request = Build_Bazel_Remote_Execution_V2_ExecuteRequest()
        request.instanceName = instanceName
        request.actionDigest = action.message
        request.skipCacheLookup = skipCacheLookup
        request.digestFunction = .sha256
        var operations = try await perform("Execute") { () async throws(GRPCCallFailure) in
            try await connection.serverStreaming(
                Self.path("Execution", "Execute"), request, as: Google_Longrunning_Operation.self,
                timeout: timeout)
        }
        // A server may end the stream before the operation is done (it restarts its streams
        // now and then); REAPI's answer is to wait on the operation by its name.
        var waits = 0
        while operations.contains(where: \.done) == false, let name = operations.last?.name, !name.isEmpty,
            waits < Self.maximumWaits
        {
            waits += 1
            var wait = Build_Bazel_Remote_Execution_V2_WaitExecutionRequest()
            wait.name = name
            operations = try await perform("WaitExecution") { () async throws(GRPCCallFailure) in
                try await connection.serverStreaming(
                    Self.path("Execution", "WaitExecution"), wait, as: Google_Longrunning_Operation.self,
                    timeout: timeout)
            }
        }
        guard let operation = operations.first(where: \.done) else {
            throw .connectionLost(
                call: "Execute",
                reason: "the operation stream ended \(waits + 1) times before the action was done")
        }
        switch operation.result {
        case .error(let status):
            throw .rejected(call: "Execute", code: GRPCStatus.name(of: status.code), message: status.message)
        case .response(let any):
            let response: Build_Bazel_Remote_Execution_V2_ExecuteResponse
            do {
                response = try Build_Bazel_Remote_Execution_V2_ExecuteResponse(unpackingAny: any)
            } catch {
                throw .rejected(call: "Execute", code: "invalidResponse", message: "\(error)")
            }
            if response.status.code == GRPCStatus.deadlineExceeded {
                return Execution(
                    result: response.result, cachedResult: false,
                    message: [response.status.message, response.message].filter { !$0.isEmpty }.joined(
                        separator: "; "), actionTimedOut: true)
            }
            guard response.status.code == 0 else {
                throw .rejected(
                    call: "Execute", code: GRPCStatus.name(of: response.status.code),
                    message: response.status.message)
            }
            return Execution(
                result: response.result, cachedResult: response.cachedResult, message: response.message)
        case nil:
            throw .rejected(
                call: "Execute", code: "invalidResponse", message: "a done operation with no result")
        }
    }

    /// How many times an Execute whose stream ended early is waited on again by name.
    static let maximumWaits = 10

    // MARK: Errors

    /// Runs one call, turning how it failed into a ``RemoteExecutionError``.
    func perform<Result: Sendable>(
        _ call: String, _ body: () async throws(GRPCCallFailure) -> Result
    ) async throws(RemoteExecutionError) -> Result {
        do {
            return try await body()
        } catch {
            // A broken call after the server answered one (even with an error status) is a lost
            // connection; before that, the server was never reached.
            let wasAnswered = connection.hasAnswered
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
            case .unreadableRequest(let reason):
                throw .unreadableUpload(reason)
            }
        }
    }
}

/// How far a ByteStream.Write has got: the offset of the next chunk to send.
private final class WriteProgress: Sendable {
    private let next = Mutex<Int64>(0)

    /// The offset of the next chunk of at most `chunk` bytes of a blob of `size`, moving past
    /// it; nil once the blob is all sent.
    func claim(_ chunk: Int, of size: Int64) -> Int64? {
        next.withLock { offset in
            guard offset < size else { return nil }
            defer { offset += Int64(chunk) }
            return offset
        }
    }
}
