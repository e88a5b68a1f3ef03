import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``Transport`` over `URLSession` (FoundationNetworking on Linux).
///
/// It keeps **one long-lived session**: on Swift 6.3 for Linux, tearing down short-lived
/// sessions crashes (swift-corelibs-foundation #5203, #5469), so use ``shared`` or keep your
/// instance for the life of the process.
///
/// Where FoundationNetworking differs from the ``Transport`` contract, this type makes up the
/// difference: its session's delegate refuses redirects (the provider follows them), counts the
/// body against ``maximumResponseSize`` as it arrives, and a timer of its own enforces the
/// request's `timeoutInterval` as a total deadline to the millisecond (URLSession's is an idle
/// timeout in whole seconds). Cancelling calls `URLSessionTask.cancel()` from another queue,
/// never from inside the task-cancellation handler, which deadlocks on 6.3 (#5417). The
/// delegate, the deadlines and the cancels each run on a serial queue of their own, never on
/// the cooperative pool's threads.
public final class URLSessionTransport: Transport {
    /// The process-wide transport over one session, with the default response limit (100 MiB).
    public static let shared = URLSessionTransport()

    /// The session every request goes through. Its delegate belongs to the transport.
    public let session: URLSession

    /// The largest body accepted, in bytes, after decoding.
    public let maximumResponseSize: Int

    private let exchanges: URLSessionExchanges

    /// What a session gets when none is given: `.default` without cookies or a cache, so that
    /// it behaves like the other transports, which keep neither.
    public static var defaultConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    /// Creates a transport over a new session. Keep it for the life of the process.
    ///
    /// - Parameters:
    ///   - configuration: The session's configuration.
    ///   - maximumResponseSize: The largest body accepted, in bytes, after decoding.
    public init(
        configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration,
        maximumResponseSize: Int = URLSessionTransport.defaultMaximumResponseSize
    ) {
        self.maximumResponseSize = maximumResponseSize
        exchanges = URLSessionExchanges()
        session = URLSession(
            configuration: configuration, delegate: exchanges, delegateQueue: DelegateQueue())
    }

    /// Sends `request` with a data task and returns the whole response.
    public func send(_ request: URLRequest) async throws(NetworkError) -> TransportResponse {
        try await run(request) { .buffered($0) }
    }

    /// Sends `request` with a data task and returns when the response's head has arrived.
    ///
    /// FoundationNetworking cannot pause a transfer, so a reader slower than the network lets
    /// the body wait in memory, up to ``maximumResponseSize``.
    public func stream(_ request: URLRequest) async throws(NetworkError) -> TransportStream {
        try await run(request) { .streaming($0) }
    }

    private func run<Outcome: Sendable>(
        _ request: URLRequest,
        waiter: (CheckedContinuation<Result<Outcome, NetworkError>, Never>) -> URLSessionExchange.Waiter
    ) async throws(NetworkError) -> Outcome {
        if Task.isCancelled { throw .cancelled }
        guard let scheme = request.url?.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .invalidURL(request.url?.absoluteString ?? "")
        }
        let deadline = request.timeoutInterval
        var sent = request
        // URLSession's own timeout is idle time in whole seconds; ours must fire first.
        sent.timeoutInterval = deadline.rounded(.up) + 1
        if sent.value(forHTTPHeaderField: "Accept-Encoding") == nil {
            sent.setValue(URLRequest.acceptedContentCodings, forHTTPHeaderField: "Accept-Encoding")
        }
        let task = session.dataTask(with: sent)
        let exchange = URLSessionExchange(task: task, limit: maximumResponseSize, timeout: deadline)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                exchange.waiter = waiter(continuation)
                exchanges.start(exchange)
            }
        } onCancel: {
            exchange.stop(because: .cancelled)
        }
        return try result.get()
    }
}

/// The session's delegate: routes each task's events to its exchange.
private final class URLSessionExchanges: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Mutex<[Int: URLSessionExchange]>([:])

    func start(_ exchange: URLSessionExchange) {
        let identifier = exchange.task.taskIdentifier
        exchanges.withLock { $0[identifier] = exchange }
        // Cancelled before it started: the task is never resumed, so no event will come for it.
        if !exchange.start() { exchanges.withLock { _ = $0.removeValue(forKey: identifier) } }
    }

    private func exchange(for task: URLSessionTask) -> URLSessionExchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // NetworkProvider follows redirects itself.
        if let exchange = exchange(for: task) {
            exchange.refuseRedirect(completionHandler)
        } else {
            completionHandler(nil)
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        exchange(for: dataTask)?.receive(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(for: dataTask)?.receive(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        exchange?.complete(error)
    }
}

/// Where the session's delegate hears of each response, body chunk and completion.
///
/// Not FoundationNetworking's default queue, an `OperationQueue` over a concurrent dispatch
/// queue: next to busy async work its callbacks waited 30–100 ms each in a small reproduction,
/// and FoundationNetworking reads no body until the delegate has answered for the head. A serial
/// dispatch queue gets a thread of its own when it has work (under 7 ms in the same
/// reproduction).
private final class DelegateQueue: OperationQueue, @unchecked Sendable {
    // @unchecked: OperationQueue is thread-safe; the added property is a constant.

    /// Kept here because `underlyingQueue` does not retain it.
    private let dispatchQueue = DispatchQueue(label: "NetworkProvider.URLSessionTransport")

    override init() {
        super.init()
        name = "NetworkProvider.URLSessionTransport"
        maxConcurrentOperationCount = 1
        underlyingQueue = dispatchQueue
    }
}
