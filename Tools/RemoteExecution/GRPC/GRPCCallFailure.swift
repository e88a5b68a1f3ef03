/// Why a gRPC call did not end with an OK status. ``RemoteExecutionClient`` turns each into a
/// ``RemoteExecutionError`` naming the REAPI call.
enum GRPCCallFailure: Error, Equatable {
    /// No connection could be made.
    case unreachable(String)
    /// The connection or the call's stream broke before the server ended the call.
    case broken(String)
    /// The server ended the call with a status other than OK.
    case status(GRPCStatus)
    /// The server answered something that is not gRPC: another HTTP status, a cut message, bytes
    /// that are not the expected message.
    case protocolViolation(String)
    /// The call's deadline passed.
    case timedOut
    /// The task making the call was cancelled.
    case cancelled
    /// A request's bytes could not be made here (a file to upload could not be read): the
    /// server did nothing wrong.
    case unreadableRequest(String)

    /// The failure in words, for a ``RemoteExecutionError``'s reason.
    var reason: String {
        switch self {
        case .unreachable(let reason), .broken(let reason), .protocolViolation(let reason),
            .unreadableRequest(let reason):
            reason
        case .status(let status): "\(status)"
        case .timedOut: "the deadline passed"
        case .cancelled: "cancelled"
        }
    }
}
