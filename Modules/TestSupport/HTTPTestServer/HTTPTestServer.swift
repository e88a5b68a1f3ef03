import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests and benchmarks: real sockets, keep-alive, and
/// scripted misbehaviour that a well-behaved server library makes hard to produce: late and
/// dripping answers, bodies cut short, resets, broken chunking, malformed heads, compressed
/// bodies, redirects (see ``HTTPTestReply``).
///
/// ```swift
/// let server = try HTTPTestServer { request in
///     request.path == "/hello" ? .text("hi") : .status(404)
/// }
/// defer { server.stop() }
/// let url = server.url("/hello")
/// ```
///
/// Each connection is served on its own thread; handlers run there, so they may block (a
/// `.delayed` reply waits on that connection only, and stops waiting when the client goes away
/// or the server stops).
public final class HTTPTestServer: Sendable {
    /// The port the server listens on.
    public let port: UInt16
    private let listener: Int32
    private let handler: @Sendable (HTTPTestRequest) -> HTTPTestReply
    /// Written once by ``stop()``: every connection's wait polls its read end.
    private let stopPipe: (read: Int32, write: Int32)
    private let state = Mutex(State())

    /// Starts a server on a free loopback port.
    ///
    /// - Parameter handler: Answers each request. It runs on the connection's thread.
    public init(handler: @escaping @Sendable (HTTPTestRequest) -> HTTPTestReply) throws {
        self.handler = handler
        OpenFileLimit.raised
        // Close-on-exec, like every descriptor it opens: a program another test starts must not
        // keep this server's connections open.
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw HTTPTestServerError.socket(errno) }
        var reuse: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socket, 512) == 0 else {
            close(socket)
            throw HTTPTestServerError.socket(errno)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(socket, $0, &length) }
        }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            close(socket)
            throw HTTPTestServerError.socket(errno)
        }
        // Glibc's pipe2 and accept4 are not imported into Swift; a spawn between these calls and
        // the flag is the one moment a child could still inherit them.
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        stopPipe = (pipeEnds[0], pipeEnds[1])
        listener = socket
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "HTTPTestServer.accept"
        thread.start()
    }

    /// The server's URL for `path` (which may carry a query).
    public func url(_ path: String = "/") -> URL {
        // The path is written by the test itself; a malformed one is a bug in the test.
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else {
            preconditionFailure("HTTPTestServer.url: invalid path \(path)")
        }
        return url
    }

    /// The number of connections accepted so far; with keep-alive, fewer than requests.
    public var acceptedConnections: Int { state.withLock { $0.accepted } }

    /// The number of requests answered (or started) so far.
    public var requestCount: Int { state.withLock { $0.requests } }

    /// The number of answers not finished because the client went away (during a delay, a drip
    /// or a write): how a test sees that a cancelled request really closed its connection.
    public var abandonedReplies: Int { state.withLock { $0.abandoned } }

    /// The bytes written to clients so far, heads included: how a test sees that a slow reader
    /// holds the server back instead of the whole body piling up in the client.
    public var bytesSent: Int { state.withLock { $0.sent } }

    /// Returns once ``requestCount`` is at least `count`: a test that must act while a request is
    /// in flight waits for it to arrive, rather than sleeping and hoping it has.
    ///
    /// The default timeout is long on purpose: a wait that succeeds returns at once, and on two
    /// cores running every suite of a plain `swift test`, a request took up to 30 s to arrive.
    ///
    /// - Returns: Whether the count was reached; `false` after `timeout`, or once the server
    ///   stopped short of it.
    @discardableResult
    public func waitForRequests(_ count: Int = 1, within timeout: Duration = .seconds(120)) async -> Bool {
        await wait(until: .requests, reaches: count, within: timeout)
    }

    /// Returns once ``abandonedReplies`` is at least `count`: how a test waits for the server to
    /// see that a cancelled client went away.
    ///
    /// - Returns: Whether the count was reached; `false` after `timeout`, or once the server
    ///   stopped short of it.
    @discardableResult
    public func waitForAbandonedReplies(_ count: Int = 1, within timeout: Duration = .seconds(120)) async
        -> Bool
    {
        await wait(until: .abandoned, reaches: count, within: timeout)
    }

    /// Stops listening and closes every open connection.
    public func stop() {
        let (wasRunning, waiters) = state.withLock { state -> (Bool, [Waiter]) in
            defer {
                state.running = false
                state.connections.removeAll()
                state.waiters.removeAll()
            }
            // Sockets are shut down here, under the lock, and closed only by their owners (the
            // listener under the lock, a connection once its thread has taken it out of the set
            // under the lock): a number closed elsewhere could be reused at once by another
            // server's socket (in a test running beside this one). The accept loop, which owns the
            // listener, once called `accept` on such a reused number between its check and its
            // call, took that server's connection and closed it unanswered ("Empty reply from
            // server"). Shut down, the listener wakes the loop, which closes it as it ends.
            if state.listenerOpen { shutdown(listener, Int32(SHUT_RDWR)) }
            for connection in state.connections { shutdown(connection, Int32(SHUT_RDWR)) }
            return (state.running, Array(state.waiters.values))
        }
        // The counts can no longer grow.
        for waiter in waiters { waiter.finish(reached: false) }
        guard wasRunning else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(stopPipe.write, &byte, 1)
    }

    deinit {
        stop()
        // Connection threads still waiting hold `self`, so none is left polling the pipe here.
        close(stopPipe.read)
        close(stopPipe.write)
    }

    private func acceptLoop() {
        defer {
            state.withLock { state in
                state.listenerOpen = false
                close(listener)
            }
        }
        while state.withLock({ $0.running }) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                switch errno {
                case EINTR, ECONNABORTED, EPROTO:
                    continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors or memory for now: a test may be holding many. Ending
                    // here would leave a running server deaf; try again a moment later (this is
                    // the loop's own thread, not the cooperative pool).
                    usleep(10_000)
                    continue
                default:
                    // `stop()` shut the listener down (EINVAL), or it broke: either way no accept
                    // can succeed again.
                    return
                }
            }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            var one: Int32 = 1
            setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let accepted = state.withLock { state in
                guard state.running else { return false }
                state.connections.insert(connection)
                state.accepted += 1
                return true
            }
            guard accepted else {
                close(connection)
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.stackSize = 256 * 1024
            thread.start()
        }
    }

    private func serve(_ socket: Int32) {
        let connection = HTTPTestConnection(socket: socket, stopSignal: stopPipe.read) { [self] count in
            state.withLock { $0.sent += count }
        }
        var next = HTTPTestConnection.Next.close
        defer {
            state.withLock { _ = $0.connections.remove(socket) }
            if next == .reset { connection.prepareReset() }
            close(socket)
        }
        var reader = SocketReader(socket: socket)
        while let request = reader.readRequest() {
            count(.requests)
            guard let outcome = connection.answer(handler(request), to: request) else {
                count(.abandoned)
                next = .close
                return
            }
            next = outcome
            if outcome != .keepOpen { return }
        }
    }
}

extension HTTPTestServer {
    /// The counts a test can wait for.
    private enum Counter {
        case requests, abandoned
    }

    /// A test waiting for a count, and the task that ends its wait at the timeout.
    private struct Waiter: Sendable {
        let counter: Counter
        let count: Int
        let continuation: CheckedContinuation<Bool, Never>
        var timer: Task<Void, Never>?

        func finish(reached: Bool) {
            timer?.cancel()
            continuation.resume(returning: reached)
        }
    }

    private struct State {
        var running = true
        /// Until the accept loop has closed it.
        var listenerOpen = true
        var connections: Set<Int32> = []
        var requests = 0
        var accepted = 0
        var abandoned = 0
        var sent = 0
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0

        subscript(counter: Counter) -> Int {
            switch counter {
            case .requests: requests
            case .abandoned: abandoned
            }
        }
    }

    /// Adds one to `counter` and lets go of the waits it satisfies.
    private func count(_ counter: Counter) {
        let satisfied = state.withLock { state -> [Waiter] in
            switch counter {
            case .requests: state.requests += 1
            case .abandoned: state.abandoned += 1
            }
            let ids = state.waiters.filter { $0.value.counter == counter && state[counter] >= $0.value.count }
                .keys
            return ids.compactMap { state.waiters.removeValue(forKey: $0) }
        }
        for waiter in satisfied { waiter.finish(reached: true) }
    }

    private func wait(until counter: Counter, reaches count: Int, within timeout: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            let id = state.withLock { state -> Int? in
                guard state.running, state[counter] < count else { return nil }
                defer { state.nextWaiter += 1 }
                state.waiters[state.nextWaiter] = Waiter(
                    counter: counter, count: count, continuation: continuation, timer: nil)
                return state.nextWaiter
            }
            guard let id else {
                continuation.resume(returning: state.withLock { $0[counter] >= count })
                return
            }
            let timer = Task { [weak self] in
                do {
                    try await Task.sleep(for: timeout)
                } catch {
                    return  // cancelled: the wait ended first
                }
                self?.endWait(id)
            }
            let stillWaiting = state.withLock { state in
                guard var waiter = state.waiters[id] else { return false }
                waiter.timer = timer
                state.waiters[id] = waiter
                return true
            }
            if !stillWaiting { timer.cancel() }
        }
    }

    /// Ends a wait at its timeout, unless it has ended already.
    private func endWait(_ id: Int) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.finish(reached: false)
    }
}

/// Why the server could not start.
public enum HTTPTestServerError: Error {
    /// A socket call failed with this `errno`.
    case socket(Int32)
}
