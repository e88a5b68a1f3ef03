import CCurl
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``Transport`` that calls libcurl directly: one multi handle, driven on a thread of its own,
/// so connections are reused across every request (HTTP/1.1 keep-alive, and HTTP/2 multiplexing
/// where the server offers it).
///
/// The deadline is curl's total timeout (`CURLOPT_TIMEOUT_MS`); cancelling removes the transfer
/// from the multi handle at once; a streamed body pauses its transfer while the reader is a
/// buffer behind.
///
/// The transport and its thread live as long as the process; use ``shared`` unless you need a
/// different size limit.
public final class CurlTransport: Transport, @unchecked Sendable {
    // @unchecked: the multi handle and `active` belong to the loop thread; the commands other
    // threads send are behind `inbox`, and curl_multi_wakeup is documented as thread-safe.

    /// The process-wide transport, with the default response limit (100 MiB).
    public static let shared = CurlTransport()

    /// The largest body accepted, in bytes, after decoding.
    public let maximumResponseSize: Int

    /// What other threads ask of the loop thread, in the order they asked.
    enum Command {
        case add(CurlTransfer)
        case cancel(CurlTransfer)
        case resume(CurlTransfer)
    }

    /// The commands not yet handled, and whether the loop thread waits in `curl_multi_poll`.
    struct Inbox {
        var commands: [Command] = []
        /// Only a sleeping loop needs the wakeup, a system call.
        var sleeping = false
    }

    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex(Inbox())
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_ALL))
    }()

    /// Creates a transport with its own multi handle and thread.
    ///
    /// - Parameter maximumResponseSize: The largest body accepted, in bytes, after decoding.
    public init(maximumResponseSize: Int = CurlTransport.defaultMaximumResponseSize) {
        _ = Self.globalInit
        self.maximumResponseSize = maximumResponseSize
        guard let multi = curl_multi_init() else {
            // Only fails when out of memory; there is nothing sensible to do but stop.
            fatalError("curl_multi_init failed")
        }
        self.multi = multi
        _ = ribcage_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = ribcage_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 16)
        let thread = Thread { [self] in runLoop() }
        thread.name = "CurlTransport"
        thread.start()
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
                self.post(.resume(transfer))
            },
            onTermination: { [weak self, weak transfer] in
                guard let self, let transfer else { return }
                transfer.cancelRequested.store(true, ordering: .releasing)
                self.post(.cancel(transfer))
            })
        return try await run(transfer) { continuation in
            transfer.mode = .streaming(head: continuation, body: body, source: source)
        }
    }

    /// Hands `transfer` to the loop thread and waits for its outcome; cancelling the calling task
    /// cancels it, at whatever moment that happens.
    private func run<Outcome: Sendable>(
        _ transfer: CurlTransfer,
        configure: (CheckedContinuation<Result<Outcome, NetworkError>, Never>) -> Void
    ) async throws(NetworkError) -> Outcome {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                configure(continuation)
                post(.add(transfer))
            }
        } onCancel: {
            // The flag first: a cancel that overtakes the add is seen when the add is handled.
            transfer.cancelRequested.store(true, ordering: .releasing)
            post(.cancel(transfer))
        }
        return try result.get()
    }

    private func post(_ command: Command) {
        let sleeping = inbox.withLock { inbox in
            inbox.commands.append(command)
            defer { inbox.sleeping = false }
            return inbox.sleeping
        }
        if sleeping { curl_multi_wakeup(multi) }
    }

    private func runLoop() {
        var running: Int32 = 0
        while true {
            let commands = inbox.withLock { inbox in
                inbox.sleeping = false
                defer { inbox.commands.removeAll(keepingCapacity: true) }
                return inbox.commands
            }
            for command in commands { handle(command) }

            curl_multi_perform(multi, &running)
            var remaining: Int32 = 0
            while let message = curl_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let transfer = active.removeValue(forKey: easy)
                else { continue }
                let code = ribcage_curl_message_result(message)
                curl_multi_remove_handle(multi, easy)
                transfer.complete(code)
            }
            // Sleeps only if no command came in meanwhile; one that comes later wakes it.
            let idle = inbox.withLock { inbox in
                inbox.sleeping = inbox.commands.isEmpty
                return inbox.sleeping
            }
            if idle { curl_multi_poll(multi, nil, 0, 1_000, nil) }
        }
    }

    private func handle(_ command: Command) {
        switch command {
        case .add(let transfer):
            if transfer.cancelRequested.load(ordering: .acquiring) {
                transfer.fail(.cancelled)
                return
            }
            active[transfer.easy] = transfer
            curl_multi_add_handle(multi, transfer.easy)
        case .cancel(let transfer):
            // Not active: not added yet (the add will see the flag) or already finished.
            guard active.removeValue(forKey: transfer.easy) != nil else { return }
            curl_multi_remove_handle(multi, transfer.easy)
            transfer.fail(.cancelled)
        case .resume(let transfer):
            guard active[transfer.easy] != nil else { return }
            transfer.resumeReceiving()
        }
    }
}
