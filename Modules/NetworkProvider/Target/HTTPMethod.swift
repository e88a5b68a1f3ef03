/// An HTTP method. Any method is allowed; the common ones have names.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    /// The method as sent, e.g. `GET`.
    public let rawValue: String

    /// A method from its name, upper-cased.
    public init(rawValue: String) {
        self.rawValue = rawValue.uppercased()
    }

    /// A method from a literal, e.g. `"PROPFIND"`.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// `GET`: reads the target; safe and idempotent, so the default retry policy retries it.
    public static let get: HTTPMethod = "GET"
    /// `POST`: sends the body for the target to process; not idempotent, so the default retry
    /// policy never repeats it.
    public static let post: HTTPMethod = "POST"
    /// `PUT`: replaces the target with the body; idempotent, so the default retry policy
    /// retries it.
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`: changes part of the target; not idempotent, so the default retry policy never
    /// repeats it.
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`: removes the target; idempotent, so the default retry policy retries it.
    public static let delete: HTTPMethod = "DELETE"
    /// `HEAD`: `GET` without the body, for the status and headers alone.
    public static let head: HTTPMethod = "HEAD"
    /// `OPTIONS`: asks which methods and options the target allows.
    public static let options: HTTPMethod = "OPTIONS"
    /// `TRACE`: asks the server to echo the request, for diagnostics.
    public static let trace: HTTPMethod = "TRACE"
    /// `CONNECT`: asks a proxy for a tunnel to the target's host.
    public static let connect: HTTPMethod = "CONNECT"

    /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2):
    /// the methods Alamofire's retry policy retries.
    public var isIdempotent: Bool {
        [.get, .head, .put, .delete, .options, .trace].contains(self)
    }
}
