import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a transport hands back: the raw response.
public struct TransportResponse: Sendable {
    /// The status code.
    public var statusCode: Int
    /// The headers.
    public var headers: [String: String]
    /// The body.
    public var body: Data
    /// The final URL, after redirects.
    public var url: URL?

    /// Creates a transport response.
    public init(statusCode: Int, headers: [String: String], body: Data, url: URL?) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
    }
}

/// Sends one request and returns its response. ``URLSessionTransport`` and ``CurlTransport``
/// conform and pass the same conformance suite.
///
/// A transport throws only ``NetworkError/transport(_:)``, ``NetworkError/timeout(seconds:)``,
/// ``NetworkError/cancelled`` and ``NetworkError/responseTooLarge(limit:)``; any status code is a
/// response, not an error. Redirects are followed.
public protocol Transport: Sendable {
    /// Sends `request`, honouring its `timeoutInterval` and task cancellation.
    func send(_ request: URLRequest) async throws -> TransportResponse
}
