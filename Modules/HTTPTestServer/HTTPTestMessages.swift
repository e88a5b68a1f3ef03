import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A request as the test server received it.
public struct HTTPTestRequest: Sendable {
    /// `GET`, `POST`, …
    public var method: String
    /// The path without the query, e.g. `/api/breeds/image/random`.
    public var path: String
    /// The query items, in order.
    public var query: [URLQueryItem]
    /// The headers, in order, as received.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Data

    /// The first header named `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The value of the query item `name`.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}

/// How the test server answers.
public struct HTTPTestReply: Sendable {
    /// The status code.
    public var status: Int
    /// Headers to send; `Content-Length` is added.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Data
    /// Seconds to wait before answering.
    public var delay: TimeInterval = 0
    /// Send only this many bytes of the body (with the full `Content-Length`), then close.
    public var truncateBodyAfter: Int?

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

    /// A redirect to `location`.
    public static func redirect(to location: String, status: Int = 302) -> Self {
        Self(status: status, headers: [("Location", location)])
    }

    /// The same reply after `seconds`.
    public func delayed(by seconds: TimeInterval) -> Self {
        var copy = self
        copy.delay = seconds
        return copy
    }

    /// The same reply, with the connection closed after `bytes` bytes of the body.
    public func truncated(after bytes: Int) -> Self {
        var copy = self
        copy.truncateBodyAfter = bytes
        return copy
    }

    func write(to socket: Int32, for request: HTTPTestRequest) -> Bool {
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        head += "Content-Length: \(body.count)\r\n"
        if truncateBodyAfter != nil { head += "Connection: close\r\n" }
        head += "\r\n"
        var bytes = Data(head.utf8)
        if request.method != "HEAD" { bytes.append(body.prefix(truncateBodyAfter ?? body.count)) }
        let sent = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return false }
                let written = send(socket, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
        return sent && truncateBodyAfter == nil
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
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

/// Reads HTTP/1.1 requests from a socket, keeping what it read past the end of one request.
struct SocketReader {
    let socket: Int32
    private var buffer = Data()

    init(socket: Int32) {
        self.socket = socket
    }

    mutating func readRequest() -> HTTPTestRequest? {
        let separator = Data("\r\n\r\n".utf8)
        var headEnd = buffer.range(of: separator)
        while headEnd == nil {
            guard fill() else { return nil }
            headEnd = buffer.range(of: separator)
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[buffer.startIndex..<headEnd.lowerBound], as: UTF8.self)
        buffer.removeSubrange(buffer.startIndex..<headEnd.upperBound)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            )
        }
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        while buffer.count < length {
            guard fill() else { return nil }
        }
        let body = buffer.prefix(length)
        buffer.removeFirst(length)
        let target = String(requestLine[1])
        let components = URLComponents(string: target)
        return HTTPTestRequest(
            method: String(requestLine[0]), path: components?.path ?? target,
            query: components?.queryItems ?? [],
            headers: headers, body: Data(body))
    }

    private mutating func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(socket, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }
}
