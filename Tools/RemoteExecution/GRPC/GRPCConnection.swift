import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import SwiftProtobuf

/// One plaintext HTTP/2 connection to a gRPC server, and the three kinds of call REAPI needs:
/// unary (one request, one response), server streaming (one request, responses until the
/// server ends the call) and client streaming (requests in order, one response).
///
/// gRPC on HTTP/2 is small: a call is a stream whose request is a `POST` to
/// `/package.Service/Method` with `content-type: application/grpc`, each message is framed by a
/// flag byte and a 4-byte big-endian length, and the outcome is the `grpc-status` and
/// `grpc-message` of the trailers. Writing it here, over the NIOHTTP2 that async-http-client
/// already builds, spares the workspace grpc-swift's build (about two minutes of a clean build
/// on two cores; Decision 40).
final class GRPCConnection: Sendable {
    private typealias Stream = NIOAsyncChannel<HTTP2Frame.FramePayload, HTTP2Frame.FramePayload>

    private let channel: any Channel
    private let multiplexer: NIOHTTP2Handler.AsyncStreamMultiplexer<Void>
    /// The `:authority` of each request.
    private let authority: String
    private let health: ConnectionHealth

    /// The largest response message read; a length above it is the server's error, not a
    /// reason to buffer gigabytes. REAPI servers keep messages to about 4 MiB.
    static let maximumMessageBytes = 16 * 1_024 * 1_024
    /// How much the server may send ahead, per stream and on the connection: HTTP/2's default
    /// of 64 KiB would hold a large read to one window per round trip.
    static let receiveWindowBytes = 8 * 1_024 * 1_024

    /// The HTTP/2 settings: NIO's, with the receive windows of ``receiveWindowBytes``.
    private static var http2Configuration: NIOHTTP2Handler.Configuration {
        var configuration = NIOHTTP2Handler.Configuration()
        configuration.connection.initialSettings.append(
            HTTP2Setting(parameter: .initialWindowSize, value: receiveWindowBytes))
        configuration.connection.targetWindowSize = receiveWindowBytes
        configuration.stream.targetWindowSize = receiveWindowBytes
        return configuration
    }

    /// Whether the server has answered a call on this connection.
    var hasAnswered: Bool { health.hasAnswered }

    private init(
        channel: any Channel, multiplexer: NIOHTTP2Handler.AsyncStreamMultiplexer<Void>, authority: String,
        health: ConnectionHealth
    ) {
        self.channel = channel
        self.multiplexer = multiplexer
        self.authority = authority
        self.health = health
    }

    /// Opens a connection to `endpoint`, speaking HTTP/2 from the first byte (gRPC's plaintext
    /// "prior knowledge"; no upgrade from HTTP/1.1). Every `keepaliveInterval` the connection
    /// sends a PING, and closes if the answer takes longer than `keepaliveTimeout`.
    static func connect(
        to endpoint: RemoteEndpoint, timeout: Duration, keepaliveInterval: Duration,
        keepaliveTimeout: Duration
    ) async throws(GRPCCallFailure) -> GRPCConnection {
        let health = ConnectionHealth()
        let configuration = http2Configuration
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(TimeAmount(timeout))
        let initializer:
            @Sendable (any Channel) -> EventLoopFuture<
                (any Channel, NIOHTTP2Handler.AsyncStreamMultiplexer<Void>)
            > = { channel in
                // The server starts no streams of its own in gRPC; one that did gets it refused.
                channel.configureAsyncHTTP2Pipeline(mode: .client, configuration: configuration) { stream in
                    stream.close(promise: nil)
                    return stream.eventLoop.makeSucceededVoidFuture()
                }.flatMapThrowing { multiplexer in
                    try channel.pipeline.syncOperations.addHandler(
                        ConnectionWatcher(
                            health: health, keepaliveInterval: TimeAmount(keepaliveInterval),
                            keepaliveTimeout: TimeAmount(keepaliveTimeout)))
                    return (channel, multiplexer)
                }
            }
        do {
            switch endpoint {
            case .tcp(let host, let port):
                let (channel, multiplexer) = try await bootstrap.channelOption(
                    .tcpOption(.tcp_nodelay), value: 1
                )
                .connect(host: host, port: port, channelInitializer: initializer)
                return GRPCConnection(
                    channel: channel, multiplexer: multiplexer, authority: "\(host):\(port)", health: health)
            case .unixSocket(let path):
                let (channel, multiplexer) = try await bootstrap.connect(
                    unixDomainSocketPath: path, channelInitializer: initializer)
                return GRPCConnection(
                    channel: channel, multiplexer: multiplexer, authority: "localhost", health: health)
            }
        } catch {
            throw .unreachable("\(error)")
        }
    }

    /// Closes the connection; calls still running end as broken.
    func close() async {
        do {
            try await channel.close()
        } catch ChannelError.alreadyClosed {
            // The server closed it first, or the watcher did after a failure the calls reported.
        } catch {
            // Closing fails only on a connection already unusable; its calls have ended with that
            // failure, and the caller is leaving: nothing is left to tell or undo.
            health.refuseNewCalls("the connection could not be closed cleanly: \(error)")
        }
    }

    /// A call with one request and one response.
    func unary<Response: SwiftProtobuf.Message>(
        _ method: String, _ request: some SwiftProtobuf.Message, as _: Response.Type = Response.self,
        timeout: Duration?
    ) async throws(GRPCCallFailure) -> Response {
        try Self.single(method, try await call(method, [request], timeout: timeout))
    }

    /// A call with one request and any number of responses, in the order they came, once the
    /// server ended the call with an OK status.
    func serverStreaming<Response: SwiftProtobuf.Message>(
        _ method: String, _ request: some SwiftProtobuf.Message, as _: Response.Type = Response.self,
        timeout: Duration?
    ) async throws(GRPCCallFailure) -> [Response] {
        try await call(method, [request], timeout: timeout)
    }

    /// A call with `requests` in order, and one response (ByteStream's Write).
    func clientStreaming<Request: SwiftProtobuf.Message, Response: SwiftProtobuf.Message>(
        _ method: String, _ requests: [Request], as _: Response.Type = Response.self, timeout: Duration?
    ) async throws(GRPCCallFailure) -> Response {
        try Self.single(method, try await call(method, requests, timeout: timeout))
    }

    /// A call whose requests `next` makes one at a time, as the stream takes them, until it
    /// returns nil; and one response. Only one request is in memory at a time, so a blob of any
    /// size streams from its file. A failure of `next` ends the call as
    /// ``GRPCCallFailure/unreadableRequest(_:)``.
    func clientStreaming<Request: SwiftProtobuf.Message, Response: SwiftProtobuf.Message>(
        _ method: String, next: @escaping @Sendable () async throws -> Request?,
        as _: Response.Type = Response.self, timeout: Duration?
    ) async throws(GRPCCallFailure) -> Response {
        let bodies = RequestBodies.produced {
            let request: Request?
            do {
                request = try await next()
            } catch {
                throw GRPCCallFailure.unreadableRequest("\(error)")
            }
            guard let request else { return nil }
            do {
                return try request.serializedBytes()
            } catch {
                throw GRPCCallFailure.protocolViolation(
                    "a request of \(method) could not be encoded: \(error)")
            }
        }
        return try Self.single(method, try await call(method, bodies: bodies, timeout: timeout))
    }

    /// The messages a call sends: all at hand, or made one at a time as the stream takes them.
    private enum RequestBodies: Sendable {
        case all([Data])
        case produced(@Sendable () async throws -> Data?)
    }

    private static func single<Response>(_ method: String, _ responses: [Response]) throws(GRPCCallFailure)
        -> Response
    {
        guard responses.count == 1, let response = responses.first else {
            throw .protocolViolation("\(method) answered \(responses.count) messages, not one")
        }
        return response
    }

    private func call<Request: SwiftProtobuf.Message, Response: SwiftProtobuf.Message>(
        _ method: String, _ requests: [Request], timeout: Duration?
    ) async throws(GRPCCallFailure) -> [Response] {
        let bodies: [Data]
        do {
            bodies = try requests.map { try $0.serializedBytes() }
        } catch {
            throw .protocolViolation("a request of \(method) could not be encoded: \(error)")
        }
        return try await call(method, bodies: .all(bodies), timeout: timeout)
    }

    private func call<Response: SwiftProtobuf.Message>(
        _ method: String, bodies: RequestBodies, timeout: Duration?
    ) async throws(GRPCCallFailure) -> [Response] {
        do {
            guard let timeout else { return try await exchange(method, bodies: bodies, timeout: nil) }
            // The call races a timer; the first to finish decides, and the other is cancelled.
            return try await withThrowingTaskGroup(of: [Response].self) { group in
                group.addTask { try await self.exchange(method, bodies: bodies, timeout: timeout) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw GRPCCallFailure.timedOut
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw GRPCCallFailure.cancelled }
                return first
            }
        } catch let failure as GRPCCallFailure {
            // A stream that broke because the connection was given up says why it was.
            if case .broken = failure, let refusal = health.refusal { throw .broken(refusal) }
            throw failure
        } catch {
            if Task.isCancelled { throw .cancelled }
            throw .broken(health.refusal ?? "\(error)")
        }
    }

    /// One stream: the request's headers and messages, then the response's headers, messages and
    /// trailers.
    private func exchange<Response: SwiftProtobuf.Message>(
        _ method: String, bodies: RequestBodies, timeout: Duration?
    ) async throws -> [Response] {
        if let refusal = health.refusal { throw GRPCCallFailure.broken(refusal) }
        let stream = try await multiplexer.openStream { channel in
            channel.eventLoop.makeCompletedFuture { try Stream(wrappingChannelSynchronously: channel) }
        }
        return try await stream.executeThenClose { inbound, outbound in
            var headers: HPACKHeaders = [
                ":method": "POST", ":scheme": "http", ":path": method, ":authority": authority,
                "content-type": "application/grpc", "te": "trailers",
            ]
            if let timeout { headers.add(name: "grpc-timeout", value: GRPCTimeout.headerValue(timeout)) }
            try await outbound.write(.headers(.init(headers: headers)))
            // The writer waits while the stream holds too many bytes not yet sent (the server's
            // window is closed, or the socket is full), so a large upload never sits whole in
            // NIO's buffers.
            func send(_ body: Data, last: Bool) async throws {
                var framed = ByteBuffer()
                framed.writeInteger(UInt8(0))  // not compressed
                framed.writeInteger(UInt32(body.count))
                framed.writeBytes(body)
                try await outbound.write(.data(.init(data: .byteBuffer(framed), endStream: last)))
            }
            switch bodies {
            case .all(let list):
                for (index, body) in list.enumerated() { try await send(body, last: index == list.count - 1) }
                if list.isEmpty {
                    try await outbound.write(.data(.init(data: .byteBuffer(ByteBuffer()), endStream: true)))
                }
            case .produced(let next):
                // Which request is the last is known only when `next` says so: the stream ends
                // with an empty frame.
                while let body = try await next() { try await send(body, last: false) }
                try await outbound.write(.data(.init(data: .byteBuffer(ByteBuffer()), endStream: true)))
            }

            var messages = GRPCMessageReader(maximumMessageBytes: Self.maximumMessageBytes)
            var responses: [Response] = []
            var sawHeaders = false
            for try await payload in inbound {
                switch payload {
                case .headers(let frame):
                    if !sawHeaders {
                        sawHeaders = true
                        health.noteAnswer()
                        try Self.checkResponseHeaders(frame.headers, method: method)
                        // A call that fails at once may answer with headers and trailers in one.
                        guard frame.endStream else { continue }
                    }
                    try GRPCStatus(trailers: frame.headers).check()
                    guard messages.isEmpty else {
                        throw GRPCCallFailure.protocolViolation("\(method) ended inside a message")
                    }
                    return responses
                case .data(let frame):
                    guard case .byteBuffer(let bytes) = frame.data else { continue }
                    messages.append(bytes)
                    while let message = try messages.next() {
                        do {
                            responses.append(try Response(serializedBytes: Array(message.readableBytesView)))
                        } catch let error as SwiftProtobuf.BinaryDecodingError {
                            throw GRPCCallFailure.protocolViolation(
                                "\(method) answered an unreadable message: \(error)")
                        }
                    }
                case .rstStream(let code):
                    throw GRPCCallFailure.broken("the server reset the stream of \(method) (\(code))")
                default:
                    continue
                }
            }
            throw GRPCCallFailure.broken("the stream of \(method) ended without a status")
        }
    }

    /// Checks the response's first headers: HTTP status 200 and a gRPC content type. Another
    /// status is read as the gRPC specification maps it, so a proxy whose server is down
    /// (502, 503, 504) reads as an unavailable server.
    static func checkResponseHeaders(_ headers: HPACKHeaders, method: String) throws(GRPCCallFailure) {
        let status = headers.first(name: ":status").flatMap { Int($0) }
        guard status == 200 else {
            let code: Int32 =
                switch status {
                case 400: 13  // internal
                case 401: 16  // unauthenticated
                case 403: 7  // permissionDenied
                case 404: 12  // unimplemented
                case 429, 502, 503, 504: GRPCStatus.unavailable
                default: 2  // unknown
                }
            let shown = status.map(String.init) ?? "none"
            throw .status(GRPCStatus(code: code, message: "HTTP status \(shown) for \(method)"))
        }
        let contentType = headers.first(name: "content-type") ?? ""
        guard contentType.hasPrefix("application/grpc") else {
            throw .protocolViolation("\(method) answered content-type '\(contentType)', not gRPC")
        }
    }
}
