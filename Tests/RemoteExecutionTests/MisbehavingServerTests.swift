import Foundation
import NIOCore
import NIOPosix
import RemoteExecution
import Testing

/// The client against servers that are not a working gRPC server: one that never answers and
/// one that speaks HTTP/1.1. Each ends in a typed error, in bounded time.
@Suite("REAPI client against misbehaving servers")
struct MisbehavingServerTests {
    /// A loopback TCP server whose connections get `reply` and are then closed, or, when `reply`
    /// is nil, are read and never answered.
    final class LoopbackServer: Sendable {
        let channel: any Channel
        var endpoint: RemoteEndpoint {
            .tcp(host: "127.0.0.1", port: channel.localAddress?.port ?? 0)
        }

        init(reply: String?) async throws {
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .childChannelInitializer { connection in
                    connection.eventLoop.makeCompletedFuture {
                        try connection.pipeline.syncOperations.addHandler(Answer(reply: reply))
                    }
                }
                .bind(host: "127.0.0.1", port: 0).get()
        }

        func close() async throws { try await channel.close() }

        private final class Answer: ChannelInboundHandler, Sendable {
            typealias InboundIn = ByteBuffer
            let reply: String?
            init(reply: String?) { self.reply = reply }

            func channelRead(context: ChannelHandlerContext, data: NIOAny) {
                guard let reply else { return }
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                context.writeAndFlush(NIOAny(ByteBuffer(string: reply))).whenComplete { _ in
                    bound.value.close(promise: nil)
                }
            }
        }
    }

    @Test("a server that never answers: the call times out at its deadline")
    func silent() async throws {
        let server = try await LoopbackServer(reply: nil)
        let clock = ContinuousClock()
        let started = clock.now
        let error = await #expect(throws: RemoteExecutionError.self) {
            try await RemoteExecutionClient.withClient(server.endpoint, callTimeout: .seconds(1)) { client in
                try await client.capabilities()
            }
        }
        #expect(error == .timedOut(call: "GetCapabilities"))
        // Bounded: the deadline, not forever (generous, for a loaded machine).
        #expect(clock.now - started < .seconds(120))
        try await server.close()
    }

    @Test("a server that never answers, and a call with no deadline: the unanswered PING ends it")
    func silentWithoutDeadline() async throws {
        let server = try await LoopbackServer(reply: nil)
        let error = await #expect(throws: RemoteExecutionError.self) {
            try await RemoteExecutionClient.withClient(
                server.endpoint, callTimeout: nil, keepalive: (.milliseconds(300), .milliseconds(300))
            ) { client in
                try await client.capabilities()
            }
        }
        guard case .unreachable(_, let reason) = error else {
            Issue.record("expected an unreachable server, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("PING"), "\(reason)")
        try await server.close()
    }

    @Test("a server that speaks HTTP/1.1 is unreachable, with the reason")
    func http1() async throws {
        let server = try await LoopbackServer(reply: "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        let error = await #expect(throws: RemoteExecutionError.self) {
            try await RemoteExecutionClient.withClient(server.endpoint) { client in
                try await client.findMissing([BlobDigest(of: Data())])
            }
        }
        guard case .unreachable(let endpoint, let reason) = error else {
            Issue.record("expected an unreachable server, got \(String(describing: error))")
            return
        }
        #expect(endpoint == server.endpoint.description)
        #expect(!reason.isEmpty)
        try await server.close()
    }
}
