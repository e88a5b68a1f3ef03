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
    static func path(_ service: String, _ method: String) -> String {
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
