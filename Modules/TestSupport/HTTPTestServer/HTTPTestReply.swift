import Foundation

/// How the test server answers: a status, headers and body, and any misbehaviour a test wants
/// to see handled — a late answer, a body that drips or is cut short, a reset, broken chunking.
public struct HTTPTestReply: Sendable {
    /// How the body's end is marked.
    public enum Framing: Sendable, Equatable {
        /// A `Content-Length` header.
        case contentLength
        /// `Transfer-Encoding: chunked`, in chunks of this many bytes.
        case chunked(chunkSize: Int)
        /// Neither: the body ends when the server closes the connection (valid HTTP/1.1).
        case closeDelimited
    }

    /// A way the answer breaks.
    public enum Fault: Sendable, Equatable {
        /// Send this many bytes of the body, then close: a body shorter than announced.
        case closeAfterBody(bytes: Int)
        /// Send this many bytes of the body, then reset the connection (TCP RST).
        case resetAfterBody(bytes: Int)
        /// Read the request, then close without sending a byte.
        case closeBeforeAnswer
        /// Read the request, then reset the connection without sending a byte.
        case resetBeforeAnswer
        /// A chunked body whose second chunk's size line is not hexadecimal.
        case badChunkSize
    }

    /// The status code; the reason phrase sent with it is the standard one for the code.
    public var status: Int
    /// Headers to send; the framing header (`Content-Length` or `Transfer-Encoding`) is added.
    public var headers: [(name: String, value: String)]
    /// The body, as sent (already compressed, for a compressed reply).
    public var body: Data
    /// Seconds to wait before answering; the wait ends early if the client goes away.
    public var delay: TimeInterval = 0
    /// How the body's end is marked.
    public var framing = Framing.contentLength
    /// How the answer breaks, if it does.
    public var fault: Fault?
    /// The body sent `bytes` at a time with `interval` seconds between writes.
    public var drip: (bytes: Int, interval: TimeInterval)?
    /// What goes on the wire instead of a head and body, followed by a close: the status,
    /// headers, framing and fault are then ignored.
    public var verbatim: Data?

    /// A reply with everything spelled out.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON reply.
    public static func json(_ text: String, status: Int = 200) -> Self {
        Self(status: status, headers: [("Content-Type", "application/json")], body: Data(text.utf8))
    }

    /// A plain-text reply.
    public static func text(_ text: String, status: Int = 200) -> Self {
        Self(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data(text.utf8))
    }

    /// An empty reply with this status.
    public static func status(_ status: Int, headers: [(name: String, value: String)] = []) -> Self {
        Self(status: status, headers: headers)
    }

    /// Exactly `bytes` on the wire, then a close: for answers that no status, headers and fault
    /// describe, such as a status line of another protocol (`HTTP/0.9 200 OK`) or none at all.
    public static func raw(_ bytes: String) -> Self {
        Self(status: 200).with { $0.verbatim = Data(bytes.utf8) }
    }

    /// A redirect to `location`.
    public static func redirect(to location: String, status: Int = 302) -> Self {
        Self(status: status, headers: [("Location", location)])
    }

    /// The same reply after `seconds`.
    public func delayed(by seconds: TimeInterval) -> Self {
        with { $0.delay = seconds }
    }

    /// The same reply, with the connection closed after `bytes` bytes of the body.
    public func truncated(after bytes: Int) -> Self {
        failing(.closeAfterBody(bytes: bytes))
    }

    /// The same reply, broken by `fault`.
    public func failing(_ fault: Fault) -> Self {
        with { $0.fault = fault }
    }

    /// The same reply, its body sent with `Transfer-Encoding: chunked`.
    public func chunked(size: Int = 1_024) -> Self {
        with { $0.framing = .chunked(chunkSize: max(1, size)) }
    }

    /// The same reply, its body ended by closing the connection.
    public func closeDelimited() -> Self {
        with { $0.framing = .closeDelimited }
    }

    /// The same reply, its body sent `bytes` at a time every `interval` seconds.
    public func dripping(_ bytes: Int, every interval: TimeInterval) -> Self {
        with { $0.drip = (max(1, bytes), interval) }
    }

    /// The same reply with one more header.
    public func header(_ name: String, _ value: String) -> Self {
        with { $0.headers.append((name, value)) }
    }

    /// The same reply, its body compressed as `Content-Encoding: gzip`.
    public func gzipped() -> Self {
        with {
            $0.body = Deflate.gzip($0.body)
            $0.headers.append(("Content-Encoding", "gzip"))
        }
    }

    /// The same reply, its body compressed as `Content-Encoding: deflate` (zlib format).
    public func deflated() -> Self {
        with {
            $0.body = Deflate.zlib($0.body)
            $0.headers.append(("Content-Encoding", "deflate"))
        }
    }

    private func with(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }

    /// The status line and headers.
    func head(for request: HTTPTestRequest) -> Data {
        if let verbatim { return verbatim }
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        switch framing {
        case .contentLength: head += "Content-Length: \(body.count)\r\n"
        case .chunked: head += "Transfer-Encoding: chunked\r\n"
        case .closeDelimited: head += "Connection: close\r\n"
        }
        if fault != nil, framing != .closeDelimited { head += "Connection: close\r\n" }
        head += "\r\n"
        return Data(head.utf8)
    }

    /// Whether the reply has a body on the wire: not for HEAD, 1xx, 204 or 304 (RFC 9110 §6.4.1).
    func hasBody(for request: HTTPTestRequest) -> Bool {
        request.method != "HEAD" && status >= 200 && status != 204 && status != 304
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status"
        }
    }
}
