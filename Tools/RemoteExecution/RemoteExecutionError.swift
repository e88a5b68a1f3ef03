/// Why a call to a REAPI server failed. Every failure of ``RemoteExecutionClient`` is one of
/// these, so a caller can tell "run it locally instead" (``unreachable``, ``connectionLost``)
/// from "the server answered no" (``rejected``) and from a server that cannot be trusted
/// (``badDigest``).
public enum RemoteExecutionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No connection could be made: nothing listens there, or the server never answered.
    case unreachable(endpoint: String, reason: String)
    /// The server had answered this client before, and the connection broke during `call`
    /// (the server died or the network went away mid-call).
    case connectionLost(call: String, reason: String)
    /// The server sent bytes for `expected` whose digest is `actual`.
    case badDigest(expected: BlobDigest, actual: BlobDigest)
    /// The server reported absent a blob that a read asked for.
    case missingBlobs([BlobDigest])
    /// The server answered the call with an error status.
    case rejected(call: String, code: String, message: String)
    /// The server lacks what the client needs (SHA-256, execution, an action cache it may write).
    case unsupported(String)
    /// The call did not finish before its deadline.
    case timedOut(call: String)
    /// The task making the call was cancelled.
    case cancelled(call: String)
    /// The server's URL is not `grpc://HOST:PORT` or `unix:PATH`.
    case invalidEndpoint(String)
    /// A file to upload could not be read here, or changed since it was hashed: the server did
    /// nothing wrong.
    case unreadableUpload(String)

    /// A sentence for a warning, naming the call and the server's words.
    public var description: String {
        switch self {
        case .unreachable(let endpoint, let reason): "REAPI server \(endpoint) unreachable: \(reason)"
        case .connectionLost(let call, let reason):
            "connection to the REAPI server lost during \(call): \(reason)"
        case .badDigest(let expected, let actual):
            "the server sent blob \(expected) whose bytes hash to \(actual)"
        case .missingBlobs(let digests):
            "the server lacks \(digests.count) blob(s): \(digests.prefix(3).map(\.description).joined(separator: ", "))"
        case .rejected(let call, let code, let message): "\(call) failed on the server (\(code)): \(message)"
        case .unsupported(let what): "the REAPI server does not support \(what)"
        case .timedOut(let call): "\(call) timed out"
        case .cancelled(let call): "\(call) was cancelled"
        case .invalidEndpoint(let text): "not a REAPI server address (grpc://HOST:PORT or unix:PATH): \(text)"
        case .unreadableUpload(let reason): "cannot upload a file: \(reason)"
        }
    }
}
