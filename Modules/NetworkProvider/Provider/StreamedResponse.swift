import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response whose body is read as it arrives: what ``NetworkProvider/bytes(_:)`` returns.
/// Iterating it iterates ``body``.
public struct StreamedResponse: AsyncSequence, Sendable {
    /// A chunk of the body.
    public typealias Element = Data
    /// Why the body ended early.
    public typealias Failure = NetworkError

    /// The HTTP status code.
    public var statusCode: Int
    /// The headers, as received (names in the server's case).
    public var headers: [String: String]
    /// The request that produced this response (after plugins prepared it).
    public var request: URLRequest
    /// The final URL, after redirects.
    public var url: URL?
    /// The body's chunks; read them once.
    public var body: ResponseBody

    init(head: Response, body: ResponseBody) {
        statusCode = head.statusCode
        headers = head.headers
        request = head.request
        url = head.url
        self.body = body
    }

    /// The header `name`, compared case-insensitively.
    public func value(forHTTPHeaderField name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }

    /// Reads the body's chunks.
    public func makeAsyncIterator() -> ResponseBody.AsyncIterator {
        body.makeAsyncIterator()
    }
}
