import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import SwiftProtobuf

/// One plaintext HTTP/2 connection to a gRPC server, and the two kinds of call REAPI needs:
/// unary (one request, one response) and server streaming (one request, responses until the
/// server ends the call).
///
/// gRPC on HTTP/2 is small: a call is a stream whose request is a `POST` to
/// `/package.Service/Method` with `content-type: application/grpc`, each message is framed by a
/// flag byte and a 4-byte big-endian length, and the outcome is the `grpc-status` and
/// `grpc-message` of the trailers. Writing it here, over the NIOHTTP2 that async-http-client
/// already builds, spares the workspace grpc-swift's build (about two minutes of a clean build
/// on two cores; Decision 41).
final class GRPCConnection: Sendable {
    private typealias Stream = NIOAsyncChannel<HTTP2Frame.FramePayload, HTTP2Frame.FramePayload>

    private let channel: any Channel
    private let multiplexer: NIOHTTP2Handler.AsyncStreamMultiplexer<Void>
    /// The `:authority` of each request.
    private let authority: String

    private init(
        channel: any Channel, multiplexer: NIOHTTP2Handler.AsyncStreamMultiplexer<Void>, authority: String
    ) {
        self.channel = channel
        self.multiplexer = multiplexer
        self.authority = authority
    }

    /// Opens a connection to `endpoint`, speaking HTTP/2 from the first byte (gRPC's plaintext
    /// "prior knowledge"; no upgrade from HTTP/1.1).
    static func connect(to endpoint: RemoteEndpoint, timeout: Duration) async throws(GRPCCallFailure)
        -> GRPCConnection
    {
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(TimeAmount(timeout))
        let initializer:
            @Sendable (any Channel) -> EventLoopFuture<
                (any Channel, NIOHTTP2Handler.AsyncStreamMultiplexer<Void>)
            > = { channel in
                // The server starts no streams of its own in gRPC; one that did gets it refused.
                channel.configureAsyncHTTP2Pipeline(mode: .client) { stream in
                    stream.close(promise: nil)
                    return stream.eventLoop.makeSucceededVoidFuture()
                }.map { (channel, $0) }
            }
        do {
            switch endpoint {
            case .tcp(let host, let port):
                let (channel, multiplexer) = try await bootstrap.channelOption(
                    .tcpOption(.tcp_nodelay), value: 1
                )
                .connect(host: host, port: port, channelInitializer: initializer)
                return GRPCConnection(
                    channel: channel, multiplexer: multiplexer, authority: "\(host):\(port)")
            case .unixSocket(let path):
                let (channel, multiplexer) = try await bootstrap.connect(
                    unixDomainSocketPath: path, channelInitializer: initializer)
                return GRPCConnection(channel: channel, multiplexer: multiplexer, authority: "localhost")
            }
        } catch {
            throw .unreachable("\(error)")
        }
    }

    /// Closes the connection; calls still running end as broken.
    func close() async {
        // Closing a channel that the server already closed fails, and there is nothing to undo.
        _ = try? await channel.close()
    }

    /// A call with one response.
    func unary<Response: SwiftProtobuf.Message>(
        _ method: String, _ request: some SwiftProtobuf.Message, as _: Response.Type = Response.self,
        timeout: Duration?
    ) async throws(GRPCCallFailure) -> Response {
        let responses: [Response] = try await call(method, request, timeout: timeout)
        guard responses.count == 1, let response = responses.first else {
            throw .protocolViolation("\(method) answered \(responses.count) messages, not one")
        }
        return response
    }

    /// A call with any number of responses, in the order they came, once the server ended the
    /// call with an OK status.
    func serverStreaming<Response: SwiftProtobuf.Message>(
        _ method: String, _ request: some SwiftProtobuf.Message, as _: Response.Type = Response.self,
        timeout: Duration?
    ) async throws(GRPCCallFailure) -> [Response] {
        try await call(method, request, timeout: timeout)
    }

    private func call<Response: SwiftProtobuf.Message>(
        _ method: String, _ request: some SwiftProtobuf.Message, timeout: Duration?
    ) async throws(GRPCCallFailure) -> [Response] {
        let body: Data
        do {
            body = try request.serializedBytes()
        } catch {
            throw .protocolViolation("the request of \(method) could not be encoded: \(error)")
        }
        do {
            guard let timeout else { return try await exchange(method, body: body, timeout: nil) }
            // The call races a timer; the first to finish decides, and the other is cancelled.
            return try await withThrowingTaskGroup(of: [Response].self) { group in
                group.addTask { try await self.exchange(method, body: body, timeout: timeout) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw GRPCCallFailure.timedOut
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw GRPCCallFailure.cancelled }
                return first
            }
        } catch let failure as GRPCCallFailure {
            throw failure
        } catch {
            if Task.isCancelled { throw .cancelled }
            throw .broken("\(error)")
        }
    }

    /// One stream: the request's headers and message, then the response's headers, messages and
    /// trailers.
    private func exchange<Response: SwiftProtobuf.Message>(
        _ method: String, body: Data, timeout: Duration?
    ) async throws -> [Response] {
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
            var framed = ByteBuffer()
            framed.writeInteger(UInt8(0))  // not compressed
            framed.writeInteger(UInt32(body.count))
            framed.writeBytes(body)
            try await outbound.write(.data(.init(data: .byteBuffer(framed), endStream: true)))

            var messages = GRPCMessageReader()
            var responses: [Response] = []
            var sawHeaders = false
            for try await payload in inbound {
                switch payload {
                case .headers(let frame):
                    if !sawHeaders {
                        sawHeaders = true
                        let status = frame.headers.first(name: ":status")
                        guard status == "200" else {
                            throw GRPCCallFailure.protocolViolation(
                                "HTTP status \(status ?? "none") for \(method)")
                        }
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
}
