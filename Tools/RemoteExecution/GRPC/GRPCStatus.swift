import Foundation
import NIOHPACK

/// How a gRPC call ended: a status code (`google.rpc.Code`) and the server's words.
struct GRPCStatus: Equatable, Sendable, CustomStringConvertible {
    var code: Int32
    var message: String

    static let ok: Int32 = 0
    static let cancelled: Int32 = 1
    static let deadlineExceeded: Int32 = 4
    static let notFound: Int32 = 5
    static let unavailable: Int32 = 14

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The status the trailers carry. Trailers without `grpc-status` are the server's mistake,
    /// read as `unknown` (2), as the gRPC specification says a client should.
    init(trailers: HPACKHeaders) {
        code = trailers.first(name: "grpc-status").flatMap { Int32($0) } ?? 2
        // The message is percent-encoded UTF-8 on the wire.
        let encoded = trailers.first(name: "grpc-message") ?? ""
        message = encoded.removingPercentEncoding ?? encoded
    }

    /// Throws ``GRPCCallFailure/status(_:)`` unless the status is OK.
    func check() throws(GRPCCallFailure) {
        guard code == Self.ok else { throw .status(self) }
    }

    /// The code's name as the gRPC specification writes it, in lower camel case.
    static func name(of code: Int32) -> String {
        let names = [
            "ok", "cancelled", "unknown", "invalidArgument", "deadlineExceeded", "notFound", "alreadyExists",
            "permissionDenied", "resourceExhausted", "failedPrecondition", "aborted", "outOfRange",
            "unimplemented", "internalError", "unavailable", "dataLoss", "unauthenticated",
        ]
        return names.indices.contains(Int(code)) ? names[Int(code)] : "code \(code)"
    }

    var description: String { "\(Self.name(of: code)): \(message)" }
}
