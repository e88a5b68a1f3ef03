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
}
