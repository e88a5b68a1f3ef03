import CCurl
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``Transport`` that calls libcurl directly: multi handles driven with libcurl's event API,
/// each on a thread of its own, so connections are reused across requests (HTTP/1.1 keep-alive,
/// and HTTP/2 multiplexing where the server offers it).
///
/// Every transport shares the process's multi handles, one per active core, and hands each
/// transfer to the one with the fewest in flight, so that a busy process spreads its sockets over
/// every core.
///
/// The deadline is curl's total timeout (`CURLOPT_TIMEOUT_MS`); cancelling removes the transfer
/// from the multi handle at once; a streamed body pauses its transfer while the reader is a
/// buffer behind.
///
/// The shared multi handles and their threads live as long as the process; making more transports
/// costs nothing more, unless they ask for another ``connectionsPerLoop``: transports that ask for
/// the same number share one set of loops.
///
/// Each loop keeps at most ``connectionsPerLoop`` connections once their transfers end, whatever
/// the hosts, so that a process at rest holds at most that many times the number of loops, where
/// each loop's cache would otherwise keep up to that many per host it ever spoke to.
///
/// Creating a transport never fails: a transport is a value a program keeps in a `static let`
/// (``shared``) or a provider's default argument, as a Moya provider or an Alamofire `Session`
/// is made. The multi handles are made at the first request, and if the process has no
/// descriptor or memory left for them, that request fails with
/// ``NetworkError/transportUnavailable(_:)``, naming the resource and the system's reason, and
/// the next request tries again.
///
/// A process that forks must `exec` in the child before the child sends a request through a
/// `CurlTransport` made in the parent: the child has no copy of the transport's thread.
public final class CurlTransport: Transport {
    /// The process-wide transport, with the default response limit (100 MiB).
    public static let shared = CurlTransport()

    /// The largest body accepted, in bytes, after decoding.
    public let maximumResponseSize: Int

    /// How many connections each loop keeps open: at most this many to one host at a time, and
    /// at most this many in all after their transfers end (curl then closes the oldest idle
    /// one). While more transfers than this run on a loop at once over several hosts, each that
    /// ends beyond the bound closes its connection rather than keep it.
    public let connectionsPerLoop: Int

    /// The ``connectionsPerLoop`` of a transport made without one: 16, the per-host limit the
    /// loops had before the bound, so 16 concurrent requests to one server never wait for a
    /// connection even on one loop; at rest, 32 connections at most on 2 cores.
    public static let defaultConnectionsPerLoop = 16

    private let pool: CurlLoopPool
    /// The process's loops, one per active core for each ``connectionsPerLoop`` asked for, shared
    /// by every transport made with the public initializer and that number.
    private static let sharedPools = Mutex<[Int: CurlLoopPool]>([:])

    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_ALL))
    }()

    /// Creates a transport over the process's shared multi handles.
    ///
    /// - Parameters:
    ///   - maximumResponseSize: The largest body accepted, in bytes, after decoding.
    ///   - connectionsPerLoop: How many connections each loop keeps open, at least 1.
    public init(
        maximumResponseSize: Int = CurlTransport.defaultMaximumResponseSize,
        connectionsPerLoop: Int = CurlTransport.defaultConnectionsPerLoop
    ) {
        _ = Self.globalInit
        self.maximumResponseSize = maximumResponseSize
        let connections = max(1, connectionsPerLoop)
        self.connectionsPerLoop = connections
        pool = Self.sharedPools.withLock { pools in
            if let pool = pools[connections] { return pool }
            let pool = CurlLoopPool(
                count: ProcessInfo.processInfo.activeProcessorCount, threadName: "curl loop",
                connectionsPerLoop: connections)
            pools[connections] = pool
            return pool
        }
    }

    /// Creates a transport with `loopCount` multi handles and threads of its own: for tests that
    /// need a loop nobody else uses, and for benchmarks. When the transport goes, each loop ends
    /// after its last transfer and closes its connections and descriptors.
    package init(
        maximumResponseSize: Int = CurlTransport.defaultMaximumResponseSize,
        connectionsPerLoop: Int = CurlTransport.defaultConnectionsPerLoop, loopCount: Int
    ) {
        _ = Self.globalInit
        self.maximumResponseSize = maximumResponseSize
        self.connectionsPerLoop = max(1, connectionsPerLoop)
        pool = CurlLoopPool(
            count: loopCount, threadName: "curl own loop", connectionsPerLoop: self.connectionsPerLoop)
    }

    /// The transport's loops, made now if they are not yet. Internal for tests, which look at
    /// their sockets.
    var loops: [CurlMultiLoop] {
        get throws(NetworkError) {
            do {
                return try pool.loops()
            } catch {
                throw .transportUnavailable(error)
            }
        }
    }

    /// Signalled when the loops this transport made so far have ended and closed their
    /// descriptors, which happens after the transport goes: for tests and probes that count
    /// descriptors.
    package var loopsClosed: [OneTimeSignal] { pool.loopsMade.map(\.closed) }

    /// The loop with the fewest transfers in flight, the first of them on a tie: requests made one
    /// after another stay on one loop and its warm connection, concurrent ones spread out.
    private func nextLoop() throws(NetworkError) -> CurlMultiLoop {
        let loops = try loops
        guard loops.count > 1 else { return loops[0] }
        var best = loops[0]
        var fewest = best.transfersInFlight
        for loop in loops.dropFirst() where fewest > 0 {
            let count = loop.transfersInFlight
            if count < fewest { (best, fewest) = (loop, count) }
        }
        return best
    }

    /// Sends `request` through libcurl and returns the whole response.
    public func send(_ request: URLRequest) async throws(NetworkError) -> TransportResponse {
        if Task.isCancelled { throw .cancelled }
        let loop = try nextLoop()
        let transfer = try CurlTransfer(request: request, limit: maximumResponseSize)
        return try await run(transfer, on: loop) { continuation in
            transfer.mode = .buffered(continuation)
        }
    }

    /// Sends `request` through libcurl and returns when the response's head has arrived.
    public func stream(_ request: URLRequest) async throws(NetworkError) -> TransportStream {
        if Task.isCancelled { throw .cancelled }
        let loop = try nextLoop()
        let transfer = try CurlTransfer(request: request, limit: maximumResponseSize)
        let (body, source) = ResponseBody.makeStream(
            onDemand: { [weak transfer] in
                guard let transfer else { return }
                loop.post(.resume(transfer))
            },
            onTermination: { [weak transfer] in
                guard let transfer else { return }
                transfer.cancelRequested.store(true, ordering: .releasing)
                loop.post(.cancel(transfer))
            })
        return try await run(transfer, on: loop) { continuation in
            transfer.mode = .streaming(head: continuation, body: body, source: source)
        }
    }

    /// Hands `transfer` to `loop`'s multi handle, which keeps it to the end, and waits for its
    /// outcome; cancelling the calling task cancels it, at whatever moment that happens.
    private func run<Outcome: Sendable>(
        _ transfer: CurlTransfer, on loop: CurlMultiLoop,
        configure: (CheckedContinuation<Result<Outcome, NetworkError>, Never>) -> Void
    ) async throws(NetworkError) -> Outcome {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                configure(continuation)
                loop.add(transfer)
            }
        } onCancel: {
            // The flag first: a cancel that overtakes the add is seen when the add is handled.
            transfer.cancelRequested.store(true, ordering: .releasing)
            loop.post(.cancel(transfer))
        }
        return try result.get()
    }
}
