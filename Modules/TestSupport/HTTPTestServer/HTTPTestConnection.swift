import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One accepted connection, served on its own thread: its blocking writes and waits never touch
/// Swift's cooperative thread pool.
struct HTTPTestConnection {
    /// How a connection goes on after an answer.
    enum Next {
        case keepOpen, close, reset
    }

    let socket: Int32
    /// The read end of the server's stop pipe: readable once the server stops.
    let stopSignal: Int32
    /// Told how many bytes each `send` put on the wire.
    let didSend: @Sendable (Int) -> Void

    /// Sends `reply` to `request`; `nil` when the client went away before it was all sent.
    func answer(_ reply: HTTPTestReply, to request: HTTPTestRequest) -> Next? {
        if reply.delay > 0, !wait(reply.delay) { return nil }
        switch reply.fault {
        case .closeBeforeAnswer: return .close
        case .resetBeforeAnswer: return .reset
        default: break
        }
        guard write(reply.head(for: request)) else { return nil }
        if reply.verbatim != nil { return .close }
        var body = reply.hasBody(for: request) ? wireBody(of: reply) : Data()
        var next = Next.keepOpen
        switch reply.fault {
        case .closeAfterBody(let bytes):
            body = body.prefix(bytes)
            next = .close
        case .resetAfterBody(let bytes):
            body = body.prefix(bytes)
            next = .reset
        case .badChunkSize:
            next = .close
        default:
            if reply.framing == .closeDelimited { next = .close }
        }
        if let drip = reply.drip {
            var offset = body.startIndex
            while offset < body.endIndex {
                let end = min(body.endIndex, offset + drip.bytes)
                guard write(body[offset..<end]) else { return nil }
                offset = end
                if offset < body.endIndex, !wait(drip.interval) { return nil }
            }
        } else {
            guard write(body) else { return nil }
        }
        let closing = { (value: String?) in value?.lowercased() == "close" }
        let saidClose =
            closing(request.header("Connection"))
            || closing(reply.headers.first { $0.name.lowercased() == "connection" }?.value)
        if saidClose, next == .keepOpen { return .close }
        return next
    }

    /// The body as it goes on the wire, in its framing.
    private func wireBody(of reply: HTTPTestReply) -> Data {
        guard case .chunked(let size) = reply.framing else { return reply.body }
        var wire = Data()
        var offset = reply.body.startIndex
        var index = 0
        while offset < reply.body.endIndex {
            let end = min(reply.body.endIndex, offset + size)
            let sizeLine = reply.fault == .badChunkSize && index == 1 ? "zz" : String(end - offset, radix: 16)
            wire.append(Data("\(sizeLine)\r\n".utf8))
            wire.append(reply.body[offset..<end])
            wire.append(Data("\r\n".utf8))
            offset = end
            index += 1
        }
        if reply.fault == .badChunkSize, index < 2 { wire.append(Data("zz\r\n".utf8)) }
        wire.append(Data("0\r\n\r\n".utf8))
        return wire
    }

    /// Writes all of `data`; `false` when the client is gone.
    func write(_ data: Data) -> Bool {
        data.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let written = send(socket, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0, errno == EINTR { continue }
                if written <= 0 { return false }
                offset += written
                didSend(written)
            }
            return true
        }
    }

    /// Waits `seconds`; `false` if the client closed its side or the server stopped first.
    func wait(_ seconds: TimeInterval) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64((seconds * 1_000).rounded()))
        while true {
            let left = clock.now.duration(to: deadline)
            if left <= .zero { return true }
            let milliseconds = Int32(
                min(
                    60_000,
                    max(
                        1,
                        left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000)
                ))
            var watched = [
                pollfd(fd: socket, events: Self.peerClosed, revents: 0),
                pollfd(fd: stopSignal, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&watched, 2, milliseconds)
            if ready < 0, errno != EINTR { return false }
            if ready > 0 { return false }  // the client hung up, the socket failed, or the server stopped
        }
    }

    /// Linux's `POLLRDHUP` (the peer closed its side), which Glibc's module leaves out because
    /// it is a GNU extension.
    private static let peerClosed: Int16 = 0x2000

    /// Makes the coming `close` send a TCP RST instead of a FIN.
    func prepareReset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }
}
