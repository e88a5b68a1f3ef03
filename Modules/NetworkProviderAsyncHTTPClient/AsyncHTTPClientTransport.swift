import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NetworkProvider

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``NetworkProvider/Transport`` over swift-server's AsyncHTTPClient (SwiftNIO), for programs
/// that already run on NIO. It passes the same conformance suite as `CurlTransport` and
/// `URLSessionTransport`.
///
/// ```swift
/// let provider = NetworkProvider<DogAPI>(transport: AsyncHTTPClientTransport.shared)
/// ```
///
/// Where AsyncHTTPClient differs from the transport contract, this type makes up the
/// difference: its client never follows redirects (the provider does) and decodes gzip and
/// deflate; the size limit is counted as the body arrives. ``send(_:)`` collects the body on
/// NIO's event loop under AsyncHTTPClient's deadline, which for that API covers the whole
/// exchange; ``stream(_:)`` uses the async API, whose deadline covers the head only, and runs
/// the rest of the deadline over the body itself.
///
/// It lives in a module of its own so that a program using `NetworkProvider` alone never
/// builds NIO.
public final class AsyncHTTPClientTransport: Transport {
    /// The process-wide transport, with the default response limit (100 MiB). Never shut down.
    public static let shared = AsyncHTTPClientTransport()

    /// The client every request goes through.
    public let client: HTTPClient

    /// The largest body accepted, in bytes, after decoding.
    public let maximumResponseSize: Int

    private let logger: Logger

    /// The configuration a transport's client gets when none is given: AsyncHTTPClient's
    /// defaults with up to 16 connections per host, as `CurlTransport` has, and a failed
    /// connection reported at once rather than tried again until the connect timeout (10 s):
    /// the provider's ``NetworkProvider/RetryPolicy`` decides about retries, as on the other
    /// transports.
    public static var defaultConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 16
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// Creates a transport with a client of its own on NIO's shared event loops.
    ///
    /// Await ``shutdown()`` when done to know its connections are closed; a transport dropped
    /// without it shuts its client down in the background.
    ///
    /// - Parameters:
    ///   - configuration: The client's configuration. Its redirect and decompression settings
    ///     are replaced: the client follows no redirect and decodes gzip and deflate.
    ///   - maximumResponseSize: The largest body accepted, in bytes, after decoding.
    ///   - logger: AsyncHTTPClient's logger for these requests; none by default.
    public init(
        configuration: HTTPClient.Configuration = AsyncHTTPClientTransport.defaultConfiguration,
        maximumResponseSize: Int = AsyncHTTPClientTransport.defaultMaximumResponseSize,
        logger: Logger = Logger(label: "ribcage.network.async-http-client") { _ in SwiftLogNoOpLogHandler() }
    ) {
        var configuration = configuration
        configuration.redirectConfiguration = .disallow
        // The limit is ours, counted on the decoded body.
        configuration.decompression = .enabled(limit: .none)
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        self.maximumResponseSize = maximumResponseSize
        self.logger = logger
    }

    /// Shuts the client down; requests sent afterwards fail.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    deinit {
        // A transport dropped without `shutdown()` still closes its connections instead of
        // tripping AsyncHTTPClient's debug assertion. The client is already shut down when
        // `shutdown()` was called; that second call's error says nothing new.
        client.shutdown { _ in }
    }

    /// Sends `request` and returns the whole response, collected on NIO's event loop.
    public func send(_ request: URLRequest) async throws(NetworkError) -> TransportResponse {
        if Task.isCancelled { throw .cancelled }
        let (url, headers) = try Self.urlAndHeaders(of: request)
        let timeout = request.timeoutInterval
        let outgoing: HTTPClient.Request
        do {
            outgoing = try HTTPClient.Request(
                url: url, method: NIOHTTP1.HTTPMethod(rawValue: request.httpMethod ?? "GET"),
                headers: headers,
                body: request.httpBody.map { .bytes($0) })
        } catch {
            throw AsyncHTTPClientFailure.map(error, timeout: timeout)
        }
        let task = client.execute(
            request: outgoing, delegate: BodyCollector(limit: maximumResponseSize, url: url),
            deadline: Self.deadline(after: timeout), logger: logger)
        do {
            return try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
        } catch is BodyCollector.TooLarge {
            throw .responseTooLarge(limit: maximumResponseSize)
        } catch {
            throw AsyncHTTPClientFailure.map(error, timeout: timeout)
        }
    }

    /// Sends `request` and returns when the response's head has arrived.
    public func stream(_ request: URLRequest) async throws(NetworkError) -> TransportStream {
        if Task.isCancelled { throw .cancelled }
        let (url, headers) = try Self.urlAndHeaders(of: request)
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.httpMethod ?? "GET")
        outgoing.headers = headers
        if let body = request.httpBody { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let timeout = request.timeoutInterval
        let deadline = Self.deadline(after: timeout)
        let response: HTTPClientResponse
        do {
            response = try await client.execute(outgoing, deadline: deadline, logger: logger)
        } catch {
            throw AsyncHTTPClientFailure.map(error, timeout: timeout)
        }
        if let length = response.headers.first(name: "content-length").flatMap(Int.init),
            length > maximumResponseSize
        {
            throw .responseTooLarge(limit: maximumResponseSize)
        }
        let body = BodyPump.start(
            response.body, limit: maximumResponseSize, deadline: deadline, timeout: timeout,
            on: client.eventLoopGroup.any())
        return TransportStream(
            statusCode: Int(response.status.code), headers: Self.headers(response.headers), body: body,
            url: response.url ?? request.url)
    }

    /// The request's URL, if it is one this transport sends, and its headers as sent.
    private static func urlAndHeaders(of request: URLRequest) throws(NetworkError) -> (URL, HTTPHeaders) {
        guard let url = request.url, let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https"
        else {
            throw .invalidURL(request.url?.absoluteString ?? "")
        }
        var headers = HTTPHeaders()
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers.add(name: name, value: value) }
        if !headers.contains(name: "accept-encoding") {
            headers.add(name: "Accept-Encoding", value: URLRequest.acceptedContentCodings)
        }
        return (url, headers)
    }

    /// The deadline `timeout` seconds from now, to the millisecond.
    private static func deadline(after timeout: TimeInterval) -> NIODeadline {
        .now() + .milliseconds(Int64((max(0.001, timeout) * 1_000).rounded()))
    }

    /// Repeated fields combine into one list (RFC 9110 §5.3), as the other transports do.
    static func headers(_ headers: HTTPHeaders) -> [String: String] {
        var combined: [String: String] = [:]
        for (name, value) in headers { combined[name] = combined[name].map { "\($0), \(value)" } ?? value }
        return combined
    }
}
