import NIOCore
import NIOHTTP2
import Synchronization

/// What the connection as a whole has been through, shared by its calls: whether the server
/// ever answered one, and why no new call may start (the server is going away, or the
/// connection failed).
final class ConnectionHealth: Sendable {
    private struct State {
        var answered = false
        var refusal: String?
    }

    private let state = Mutex(State())

    /// Whether the server has answered a call on this connection (sent response headers).
    var hasAnswered: Bool { state.withLock { $0.answered } }

    /// Why no new call may start on this connection, or nil while calls may.
    var refusal: String? { state.withLock { $0.refusal } }

    func noteAnswer() {
        state.withLock { $0.answered = true }
    }

    /// Keeps the first reason: it is the cause, the later ones its effects.
    func refuseNewCalls(_ reason: String) {
        state.withLock { if $0.refusal == nil { $0.refusal = reason } }
    }
}

/// Watches the connection's own frames, below the streams: a GOAWAY stops new calls, a
/// connection error closes the connection (so the calls on it end, rather than wait for
/// answers that cannot come), and a PING that stays unanswered past `keepaliveTimeout`
/// closes it too: a server that vanished without a word (a cable pulled, a machine frozen)
/// would otherwise keep a long Execute waiting forever.
final class ConnectionWatcher: ChannelDuplexHandler {
    typealias InboundIn = HTTP2Frame
    typealias InboundOut = HTTP2Frame
    typealias OutboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    private let health: ConnectionHealth
    private let keepaliveInterval: TimeAmount
    private let keepaliveTimeout: TimeAmount
    private var keepalive: RepeatedTask?
    private var unansweredPing: HTTP2PingData?
    private var pingTimeout: Scheduled<Void>?

    init(health: ConnectionHealth, keepaliveInterval: TimeAmount, keepaliveTimeout: TimeAmount) {
        self.health = health
        self.keepaliveInterval = keepaliveInterval
        self.keepaliveTimeout = keepaliveTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        keepalive = context.eventLoop.scheduleRepeatedTask(
            initialDelay: keepaliveInterval, delay: keepaliveInterval
        ) { _ in
            let (watcher, context) = bound.value
            watcher.ping(context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        keepalive?.cancel()
        pingTimeout?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        health.refuseNewCalls("the connection is closed")
        keepalive?.cancel()
        pingTimeout?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case .goAway(_, let errorCode, _):
            // Calls already running may still finish; new ones would be refused by the server.
            health.refuseNewCalls("the server is closing the connection (GOAWAY, \(errorCode))")
            if errorCode != .noError { context.close(promise: nil) }
        case .ping(let data, ack: true) where data == unansweredPing:
            unansweredPing = nil
            pingTimeout?.cancel()
        default:
            break
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        health.refuseNewCalls("the connection failed: \(error)")
        context.close(promise: nil)
    }

    private func ping(context: ChannelHandlerContext) {
        guard unansweredPing == nil else { return }
        let data = HTTP2PingData(withInteger: UInt64.random(in: .min ... .max))
        unansweredPing = data
        // A PING that cannot be written means a broken connection, which closes on its own.
        context.writeAndFlush(
            wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .ping(data, ack: false))), promise: nil
        )
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let timeout = keepaliveTimeout
        pingTimeout = context.eventLoop.scheduleTask(in: keepaliveTimeout) {
            let (watcher, context) = bound.value
            guard watcher.unansweredPing == data else { return }
            watcher.health.refuseNewCalls("the server did not answer a PING within \(timeout)")
            context.close(promise: nil)
        }
    }
}
