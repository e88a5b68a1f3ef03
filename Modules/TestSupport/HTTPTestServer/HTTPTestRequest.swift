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
    /// The query as sent, still percent-encoded, or `nil` when the target has no `?`.
    public var rawQuery: String?
    /// The query items, in order, decoded.
    public var query: [URLQueryItem]
    /// The headers, in order, as received.
    public var headers: [(name: String, value: String)]
    /// The body (a chunked body already joined).
    public var body: Data

    /// The first header named `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Whether a header named `name` was sent, compared case-insensitively.
    public func hasHeader(_ name: String) -> Bool {
        header(name) != nil
    }

    /// The value of the query item `name`.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
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
        guard let head = readHead() else { return nil }
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            )
        }
        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name }?.value }
        let body: Data
        if header("transfer-encoding")?.lowercased().contains("chunked") == true {
            guard let chunked = readChunkedBody() else { return nil }
            body = chunked
        } else {
            let length = header("content-length").flatMap { Int($0) } ?? 0
            guard let fixed = read(count: length) else { return nil }
            body = fixed
        }
        let target = String(requestLine[1])
        let components = URLComponents(string: target)
        let rawQuery = target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) }
        return HTTPTestRequest(
            method: String(requestLine[0]), path: components?.path ?? target, rawQuery: rawQuery,
            query: components?.queryItems ?? [], headers: headers, body: body)
    }

    private mutating func readHead() -> String? {
        guard let end = readUntil(Data("\r\n\r\n".utf8)) else { return nil }
        return String(decoding: end, as: UTF8.self)
    }

    private mutating func readChunkedBody() -> Data? {
        var body = Data()
        while true {
            guard let line = readUntil(Data("\r\n".utf8)),
                let size = Int(
                    String(decoding: line, as: UTF8.self).split(separator: ";").first.map(String.init) ?? "",
                    radix: 16)
            else { return nil }
            if size == 0 {
                _ = readUntil(Data("\r\n".utf8))  // the empty trailer section
                return body
            }
            guard let chunk = read(count: size), read(count: 2) != nil else { return nil }
            body.append(chunk)
        }
    }

    /// The bytes before `separator`, consuming the separator too.
    private mutating func readUntil(_ separator: Data) -> Data? {
        var found = buffer.range(of: separator)
        while found == nil {
            guard fill() else { return nil }
            found = buffer.range(of: separator)
        }
        guard let found else { return nil }
        let before = Data(buffer[buffer.startIndex..<found.lowerBound])
        buffer.removeSubrange(buffer.startIndex..<found.upperBound)
        return before
    }

    private mutating func read(count: Int) -> Data? {
        while buffer.count < count {
            guard fill() else { return nil }
        }
        let bytes = Data(buffer.prefix(count))
        buffer.removeFirst(count)
        return bytes
    }

    private mutating func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(socket, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }
}
