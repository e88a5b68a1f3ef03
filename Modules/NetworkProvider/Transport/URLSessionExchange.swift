import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request of a ``URLSessionTransport``: its data task, its deadline, and what has come back.
///
/// The session's delegate queue feeds it; the caller's cancellation and the deadline timer stop
/// it from other threads. Whichever ends it first decides the outcome, once.
final class URLSessionExchange: @unchecked Sendable {
    // @unchecked: `task` is a FoundationNetworking class, safe to call from any thread; all
    // mutable state is behind `state`.

    /// Who waits for the outcome.
    enum Waiter {
        case buffered(CheckedContinuation<Result<TransportResponse, NetworkError>, Never>)
        case streaming(CheckedContinuation<Result<TransportStream, NetworkError>, Never>)
    }

    private struct State {
        var waiter: Waiter?
        /// Why the exchange was stopped before the task completed (cancelled, timeout, too large).
        var stopReason: NetworkError?
        var finished = false
        var response: HTTPURLResponse?
        var body = Data()
        var received = 0
        var source: ResponseBody.Source?
        var timer: Deadline?
        /// `task.cancel()` was (or is about to be) called.
        var taskCancelled = false
        /// FoundationNetworking was told not to follow a redirect; the task ends by itself.
        var redirectRefused = false
    }

    /// Where tasks are cancelled: `cancel()` waits for the session's work queue, so it gets a
    /// serial queue, whose thread is not one of the cooperative pool's.
    private static let cancels = DispatchQueue(label: "NetworkProvider.URLSessionExchange.cancels")

    let task: URLSessionDataTask
    private let limit: Int
    private let timeout: TimeInterval
    private let state = Mutex(State())

    init(task: URLSessionDataTask, limit: Int, timeout: TimeInterval) {
        self.task = task
        self.limit = limit
        self.timeout = timeout
    }

    var waiter: Waiter? {
        get { state.withLock { $0.waiter } }
        set { state.withLock { $0.waiter = newValue } }
    }

    /// Starts the task and its deadline; `false` when it was stopped before it could start.
    func start() -> Bool {
        let timer = Deadline(after: timeout) { [weak self] in
            guard let self else { return }
            stop(because: .timeout(seconds: timeout))
        }
        let stopped = state.withLock { state -> (waiter: Waiter?, reason: NetworkError)? in
            if state.finished { return (nil, .cancelled) }  // the deadline has already ended it
            if let reason = state.stopReason, let waiter = state.waiter {
                state.finished = true
                state.waiter = nil
                return (waiter, reason)
            }
            state.timer = timer
            return nil
        }
        if let stopped {
            timer.cancel()
            if let waiter = stopped.waiter { Self.resolve(waiter, failing: stopped.reason) }
            return false
        }
        task.resume()
        return true
    }

    /// Ends the exchange now with `reason` and cancels its task.
    func stop(because reason: NetworkError) {
        let (waiter, source, timer, running) = state.withLock { state in
            guard !state.finished, state.stopReason == nil else {
                return (Waiter?.none, ResponseBody.Source?.none, Deadline?.none, false)
            }
            state.stopReason = reason
            // Not started yet (the waiter is set when it starts): `start` reports the reason.
            guard state.waiter != nil || state.source != nil else { return (nil, nil, nil, false) }
            state.finished = true
            // After a refused redirect the task completes by itself; cancelling it then races
            // FoundationNetworking's own redirect bookkeeping (see `refuseRedirect`).
            state.taskCancelled = !state.redirectRefused
            return (state.waiter.take(), state.source.take(), state.timer.take(), true)
        }
        guard running else { return }
        timer?.cancel()
        if let waiter { Self.resolve(waiter, failing: reason) }
        source?.fail(reason)
        guard state.withLock({ $0.taskCancelled }) else { return }
        // Not inline: on Swift 6.3, cancel() inside a task-cancellation handler can deadlock (#5417).
        // Nor on `DispatchQueue.global()`: on Linux its threads are the cooperative pool's.
        let task = task
        Self.cancels.async { task.cancel() }
    }

    /// Tells FoundationNetworking not to follow a redirect: the 3xx is the response.
    ///
    /// FoundationNetworking (Swift 6.3) stops the process when a task is cancelled between
    /// asking its delegate about a redirect and hearing back ("Received callback for HTTP
    /// redirection, but we're not waiting for it"): its cancel and the answer are queued on the
    /// task's work queue in the order they were made, and the answer must not come second. So
    /// the answer and the decision to cancel are made under one lock: once the task is being
    /// cancelled no answer is given (the cancel ends the task), and once the answer is given
    /// the task is never cancelled (it completes with the 3xx).
    func refuseRedirect(_ completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        state.withLock { state in
            guard !state.taskCancelled else { return }
            state.redirectRefused = true
            completionHandler(nil)  // only queues the answer on the task's work queue
        }
    }

    func receive(_ response: URLResponse) {
        guard let http = response as? HTTPURLResponse else { return }
        if http.expectedContentLength > Int64(limit) {
            stop(because: .responseTooLarge(limit: limit))
            return
        }
        let head = state.withLock {
            state -> (CheckedContinuation<Result<TransportStream, NetworkError>, Never>)? in
            state.response = http
            guard !state.finished, case .streaming(let continuation) = state.waiter else { return nil }
            state.waiter = nil
            return continuation
        }
        guard let head else { return }
        let (body, source) = ResponseBody.makeStream(onTermination: { [weak self] in
            self?.stop(because: .cancelled)
        })
        state.withLock { $0.source = source }
        head.resume(returning: .success(Self.stream(http, body: body)))
    }

    func receive(_ data: Data) {
        let (tooLarge, source) = state.withLock { state -> (Bool, ResponseBody.Source?) in
            guard !state.finished else { return (false, nil) }
            state.received += data.count
            if state.received > limit { return (true, nil) }
            if state.source == nil { state.body.append(data) }
            return (false, state.source)
        }
        if tooLarge { stop(because: .responseTooLarge(limit: limit)) }
        source?.yield(data)
    }

    func complete(_ error: (any Error)?) {
        let (waiter, source, timer, received, body) = state.withLock { state in
            guard !state.finished else {
                return (
                    Waiter?.none, ResponseBody.Source?.none, state.timer.take(), HTTPURLResponse?.none, Data()
                )
            }
            state.finished = true
            return (state.waiter.take(), state.source.take(), state.timer.take(), state.response, state.body)
        }
        // FoundationNetworking skips didReceive(response) for some answers (a 3xx it does not
        // follow), but the task still has the response.
        let response = received ?? task.response as? HTTPURLResponse
        timer?.cancel()
        let failure: NetworkError? =
            if let error { Self.map(error, timeout: timeout) } else if response == nil {
                .transport(TransportFailure(kind: .invalidResponse, message: "not an HTTP response"))
            } else { nil }
        if let source {
            if let failure { source.fail(failure) } else { source.finish() }
            return
        }
        guard let waiter else { return }
        if let failure {
            Self.resolve(waiter, failing: failure)
            return
        }
        guard let response else { return }
        switch waiter {
        case .buffered(let continuation):
            continuation.resume(
                returning: .success(
                    TransportResponse(
                        statusCode: response.statusCode, headers: Self.headers(of: response), body: body,
                        url: response.url)))
        case .streaming(let continuation):
            // The head came with the completion (no didReceive response): the body is all here.
            continuation.resume(returning: .success(Self.stream(response, body: ResponseBody(body))))
        }
    }

    private static func stream(_ response: HTTPURLResponse, body: ResponseBody) -> TransportStream {
        TransportStream(
            statusCode: response.statusCode, headers: headers(of: response), body: body, url: response.url)
    }

    private static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return headers
    }

    private static func resolve(_ waiter: Waiter, failing error: NetworkError) {
        switch waiter {
        case .buffered(let continuation): continuation.resume(returning: .failure(error))
        case .streaming(let continuation): continuation.resume(returning: .failure(error))
        }
    }

    /// FoundationNetworking's errors in the ``TransportFailure/Kind`` every transport uses.
    static func map(_ error: any Error, timeout: TimeInterval) -> NetworkError {
        guard let urlError = error as? URLError else {
            return .transport(TransportFailure(kind: .other, message: String(describing: error)))
        }
        let message = "\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))"
        // FoundationNetworking runs libcurl and passes several of its failures on as URLError
        // -1 (unknown) or a broad code, with libcurl's own message: the message is where the
        // cause is. Curl's wording is stable across its releases.
        let curlMessage = urlError.localizedDescription
        let kind: TransportFailure.Kind
        switch urlError.code {
        case .cancelled: return .cancelled
        case .timedOut: return .timeout(seconds: timeout)
        case .cannotConnectToHost: kind = .connectionRefused
        case .cannotFindHost, .dnsLookupFailed: kind = .cannotFindHost
        case .networkConnectionLost, .zeroByteResource: kind = .connectionLost
        case .badServerResponse where curlMessage.contains("Empty reply"): kind = .connectionLost
        case .badServerResponse, .cannotParseResponse, .cannotDecodeContentData, .cannotDecodeRawData:
            kind = .invalidResponse
        // libcurl's CURLE_UNSUPPORTED_PROTOCOL. The transport sends only http and https URLs
        // and follows no redirect, so curl meets no other scheme: the answer's first line named
        // an HTTP version curl does not speak (`HTTP/0.9 200 OK`), or was not a status line at
        // all, which curl takes for an HTTP/0.9 answer and refuses.
        case .unsupportedURL: kind = .invalidResponse
        case .unknown
        where curlMessage.contains("chunked-encoding") || curlMessage.contains("content unencoding")
            || curlMessage.contains("content encoding"):
            kind = .invalidResponse
        case .unknown where curlMessage.hasPrefix("transfer closed with"): kind = .connectionLost
        default: kind = .other
        }
        return .transport(TransportFailure(kind: kind, message: message))
    }
}

/// A one-shot timer that can be cancelled, and then leaves nothing scheduled.
///
/// It fires on a serial queue rather than `DispatchQueue.global()`, whose threads on Linux are
/// the cooperative pool's: a deadline must not wait for a busy pool to fire.
private struct Deadline: @unchecked Sendable {
    // @unchecked: a dispatch source may be cancelled from any thread.
    private let source: any DispatchSourceTimer

    private static let queue = DispatchQueue(label: "NetworkProvider.URLSessionExchange.deadlines")

    init(after seconds: TimeInterval, _ handler: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: Self.queue)
        source.schedule(deadline: .now() + max(0.001, seconds))
        source.setEventHandler(handler: handler)
        source.resume()
    }

    func cancel() {
        source.cancel()
    }
}
