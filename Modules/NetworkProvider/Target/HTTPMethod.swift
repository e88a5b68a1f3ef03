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

    /// `GET`.
    public static let get: HTTPMethod = "GET"
    /// `POST`.
    public static let post: HTTPMethod = "POST"
    /// `PUT`.
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`.
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`.
    public static let delete: HTTPMethod = "DELETE"
    /// `HEAD`.
    public static let head: HTTPMethod = "HEAD"
    /// `OPTIONS`.
    public static let options: HTTPMethod = "OPTIONS"
    /// `TRACE`.
    public static let trace: HTTPMethod = "TRACE"
    /// `CONNECT`.
    public static let connect: HTTPMethod = "CONNECT"

    /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2):
    /// the methods Alamofire's retry policy retries.
    public var isIdempotent: Bool {
        [.get, .head, .put, .delete, .options, .trace].contains(self)
    }
}
