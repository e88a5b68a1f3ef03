import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a transport hands back: the raw response.
public struct TransportResponse: Sendable {
    /// The status of this one answer (a 1xx is never delivered; a redirect is, for
    /// ``NetworkProvider`` to follow).
    public var statusCode: Int
    /// The header fields as the server named them; a field sent more than once is one value,
    /// joined with `, ` (RFC 9110 §5.3).
    public var headers: [String: String]
    /// The body, decoded from any `Content-Encoding` the transport asked for.
    public var body: Data
    /// The URL that answered.
    public var url: URL?

    /// Creates a transport response.
    public init(statusCode: Int, headers: [String: String], body: Data, url: URL?) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
    }
}

/// A response whose head has arrived and whose body is still arriving.
public struct TransportStream: Sendable {
    /// The status of this one answer (a 1xx is never delivered; a redirect is, for
    /// ``NetworkProvider`` to follow).
    public var statusCode: Int
    /// The header fields as the server named them; a field sent more than once is one value,
    /// joined with `, ` (RFC 9110 §5.3).
    public var headers: [String: String]
    /// The body's chunks, as they arrive.
    public var body: ResponseBody
    /// The URL that answered.
    public var url: URL?

    /// Creates a streamed response.
    public init(statusCode: Int, headers: [String: String], body: ResponseBody, url: URL?) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
    }
}

/// Sends one HTTP exchange. ``CurlTransport``, ``URLSessionTransport`` and the
/// AsyncHTTPClient transport (module `NetworkProviderAsyncHTTPClient`) conform, and every one
/// passes the same conformance suite (`Tests/NetworkProviderTests/TransportConformanceTests.swift`)
/// against a loopback server that misbehaves in each way it checks.
///
/// What every transport does the same way:
/// - **One exchange.** A 3xx answer is returned as it is; ``NetworkProvider`` follows redirects
///   itself, so the rules for methods, bodies and credentials are the same on every transport.
/// - **Timeout.** The request's `timeoutInterval` is a total deadline in seconds, to the
///   millisecond, from sending the request to the body's last byte; then it fails with
///   ``NetworkError/timeout(seconds:)``.
/// - **Cancellation.** Cancelling the calling task (or, for a stream, the task reading its body)
///   stops the exchange and fails with ``NetworkError/cancelled``, whenever it happens.
/// - **Size.** A body larger than ``maximumResponseSize`` (after decoding) is stopped as it
///   arrives and fails with ``NetworkError/responseTooLarge(limit:)``.
/// - **Content coding.** The transport asks for `gzip` and `deflate` (unless the request sets
///   `Accept-Encoding` itself) and hands back the decoded body.
/// - **Failures.** A failure is ``NetworkError/transport(_:)`` with the ``TransportFailure/Kind``
///   its documentation gives for that cause; any status code is a response, not an error.
public protocol Transport: Sendable {
    /// The largest body accepted, in bytes, after decoding.
    var maximumResponseSize: Int { get }

    /// Sends `request` and returns the whole response.
    func send(_ request: URLRequest) async throws(NetworkError) -> TransportResponse

    /// Sends `request` and returns as soon as the response's head has arrived; its body follows
    /// in ``TransportStream/body``, under the same deadline and size limit.
    func stream(_ request: URLRequest) async throws(NetworkError) -> TransportStream
}

extension Transport {
    /// The size limit of the transports this module provides when none is given: 100 MiB.
    public static var defaultMaximumResponseSize: Int { 100 * 1_024 * 1_024 }
}

extension URLRequest {
    /// The `Accept-Encoding` every transport sends unless the request has its own.
    package static let acceptedContentCodings = "gzip, deflate"
}
