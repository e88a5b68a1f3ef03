import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``Transport`` over `URLSession` (FoundationNetworking on Linux).
///
/// It keeps **one long-lived session**: on Swift 6.3 for Linux, tearing down short-lived
/// sessions crashes (swift-corelibs-foundation #5203, #5469), so use ``shared`` or keep your
/// instance for the life of the process. Cancelling calls `URLSessionTask.cancel()` from another
/// queue, never from inside the task-cancellation handler, which deadlocks on 6.3 (#5417).
public final class URLSessionTransport: Transport {
    /// The process-wide transport over one default session.
    public static let shared = URLSessionTransport()

    /// The session every request goes through.
    public let session: URLSession

    /// Creates a transport over a new session. Keep it for the life of the process.
    public init(configuration: URLSessionConfiguration = .default) {
        session = URLSession(configuration: configuration)
    }

    /// Sends `request` with a data task.
    public func send(_ request: URLRequest) async throws -> TransportResponse {
        if Task.isCancelled { throw NetworkError.cancelled }
        let handle = DataTaskHandle()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    continuation.resume(
                        with: Self.result(data: data, response: response, error: error, request: request))
                }
                handle.start(task)
            }
        } onCancel: {
            handle.cancel()
        }
    }

    private static func result(
        data: Data?, response: URLResponse?, error: (any Error)?, request: URLRequest
    ) -> Result<TransportResponse, any Error> {
        if let error { return .failure(map(error, timeout: request.timeoutInterval)) }
        guard let http = response as? HTTPURLResponse else {
            return .failure(
                NetworkError.transport(TransportFailure(kind: .other, message: "not an HTTP response")))
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return .success(
            TransportResponse(
                statusCode: http.statusCode, headers: headers, body: data ?? Data(), url: http.url))
    }

    private static func map(_ error: any Error, timeout: TimeInterval) -> NetworkError {
        guard let urlError = error as? URLError else {
            return .transport(TransportFailure(kind: .other, message: String(describing: error)))
        }
        let message = urlError.localizedDescription
        switch urlError.code {
        case .cancelled: return .cancelled
        case .timedOut: return .timeout(seconds: timeout)
        case .cannotConnectToHost:
            return .transport(TransportFailure(kind: .connectionRefused, message: message))
        case .networkConnectionLost:
            return .transport(TransportFailure(kind: .connectionLost, message: message))
        case .cannotFindHost, .dnsLookupFailed:
            return .transport(TransportFailure(kind: .cannotFindHost, message: message))
        default:
            return .transport(
                TransportFailure(kind: .other, message: "\(message) (URLError \(urlError.code.rawValue))"))
        }
    }
}

/// The data task of one request, and whether it was cancelled before it started.
private final class DataTaskHandle: Sendable {
    private let state = Mutex<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))

    func start(_ task: URLSessionDataTask) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        task.resume()
        if cancelled { Self.cancelElsewhere(task) }
    }

    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        if let task { Self.cancelElsewhere(task) }
    }

    private static func cancelElsewhere(_ task: URLSessionDataTask) {
        // Not inline: on Swift 6.3, cancel() inside a task-cancellation handler can deadlock (#5417).
        DispatchQueue.global().async { task.cancel() }
    }
}
