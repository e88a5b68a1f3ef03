import CCurl
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``Transport`` that calls libcurl directly: one multi handle, driven with libcurl's
/// event API on a thread of its own, so connections are reused across every request (HTTP/1.1
/// keep-alive, and HTTP/2 multiplexing where the server offers it).
///
/// The deadline is curl's total timeout (`CURLOPT_TIMEOUT_MS`); cancelling removes the transfer
/// from the multi handle at once; a streamed body pauses its transfer while the reader is a
/// buffer behind.
///
/// The transport and its thread live as long as the process; use ``shared`` unless you need a
/// different size limit.
///
/// A process that forks must `exec` in the child before the child sends a request through a
/// `CurlTransport` made in the parent: the child has no copy of the transport's thread.
public final class CurlTransport: Transport {
    /// The process-wide transport, with the default response limit (100 MiB).
    public static let shared = CurlTransport()

    /// The largest body accepted, in bytes, after decoding.
    public let maximumResponseSize: Int

    /// Internal for tests, which look at its sockets.
    let loop: CurlMultiLoop

    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_ALL))
    }()

    /// Creates a transport with its own multi handle and thread.
    ///
    /// - Parameter maximumResponseSize: The largest body accepted, in bytes, after decoding.
    public init(maximumResponseSize: Int = CurlTransport.defaultMaximumResponseSize) {
        _ = Self.globalInit
        self.maximumResponseSize = maximumResponseSize
        loop = CurlMultiLoop(threadName: "CurlTransport")
    }

    /// Sends `request` through libcurl and returns the whole response.
    public func send(_ request: URLRequest) async throws(NetworkError) -> TransportResponse {
        if Task.isCancelled { throw .cancelled }
        let transfer = try CurlTransfer(request: request, limit: maximumResponseSize)
        return try await run(transfer) { continuation in transfer.mode = .buffered(continuation) }
    }

    /// Sends `request` through libcurl and returns when the response's head has arrived.
    public func stream(_ request: URLRequest) async throws(NetworkError) -> TransportStream {
        if Task.isCancelled { throw .cancelled }
        let transfer = try CurlTransfer(request: request, limit: maximumResponseSize)
        let (body, source) = ResponseBody.makeStream(
            onDemand: { [weak self, weak transfer] in
                guard let self, let transfer else { return }
                self.loop.post(.resume(transfer))
            },
            onTermination: { [weak self, weak transfer] in
                guard let self, let transfer else { return }
                transfer.cancelRequested.store(true, ordering: .releasing)
                self.loop.post(.cancel(transfer))
            })
        return try await run(transfer) { continuation in
            transfer.mode = .streaming(head: continuation, body: body, source: source)
        }
    }

    /// Hands `transfer` to the multi handle and waits for its outcome; cancelling the calling task
    /// cancels it, at whatever moment that happens.
    private func run<Outcome: Sendable>(
        _ transfer: CurlTransfer,
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
