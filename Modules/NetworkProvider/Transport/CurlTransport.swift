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
/// Timeouts come from each request's `timeoutInterval`; cancelling the calling task removes the
/// transfer from the multi handle at once; a body larger than ``maximumResponseSize`` is stopped
/// and reported as ``NetworkError/responseTooLarge(limit:)``.
///
/// The transport and its thread live as long as the process; use ``shared`` unless you need a
/// different size limit.
public final class CurlTransport: Transport, @unchecked Sendable {
    // @unchecked: the multi handle and `active` belong to the loop thread; the queues that other
    // threads touch are behind `inbox`, and curl_multi_wakeup is documented as thread-safe.

    /// The process-wide transport, with a 100 MiB response limit.
    public static let shared = CurlTransport()

    /// The largest body accepted, in bytes.
    public let maximumResponseSize: Int

    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex<(added: [CurlTransfer], cancelled: [CurlTransfer])>(([], []))
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_ALL))
    }()

    /// Creates a transport with its own multi handle and thread.
    ///
    /// - Parameter maximumResponseSize: The largest body accepted, in bytes.
    public init(maximumResponseSize: Int = 100 * 1_024 * 1_024) {
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

    /// Sends `request` through libcurl.
    public func send(_ request: URLRequest) async throws -> TransportResponse {
        if Task.isCancelled { throw NetworkError.cancelled }
        let transfer = try CurlTransfer(request: request, limit: maximumResponseSize)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.continuation = continuation
                inbox.withLock { $0.added.append(transfer) }
                curl_multi_wakeup(multi)
            }
        } onCancel: {
            inbox.withLock { $0.cancelled.append(transfer) }
            curl_multi_wakeup(multi)
        }
    }

    private func runLoop() {
        var running: Int32 = 0
        while true {
            let (added, cancelled) = inbox.withLock { inbox in
                defer { inbox = ([], []) }
                return inbox
            }
            for transfer in added {
                if cancelled.contains(where: { $0 === transfer }) {
                    transfer.finish(.failure(NetworkError.cancelled))
                    continue
                }
                active[transfer.easy] = transfer
                curl_multi_add_handle(multi, transfer.easy)
            }
            for transfer in cancelled where active.removeValue(forKey: transfer.easy) != nil {
                curl_multi_remove_handle(multi, transfer.easy)
                transfer.finish(.failure(NetworkError.cancelled))
            }

            curl_multi_perform(multi, &running)
            var remaining: Int32 = 0
            while let message = curl_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let transfer = active.removeValue(forKey: easy)
                else { continue }
                let code = ribcage_curl_message_result(message)
                curl_multi_remove_handle(multi, easy)
                transfer.finish(transfer.result(for: code))
            }
            curl_multi_poll(multi, nil, 0, 1_000, nil)
        }
    }
}

/// One request's easy handle and what has come back so far.
final class CurlTransfer: @unchecked Sendable {
    // @unchecked: configured before it is queued, then touched only by the loop thread; the
    // continuation is resumed once, guarded by `finished`.
    let easy: UnsafeMutableRawPointer
    var continuation: CheckedContinuation<TransportResponse, any Error>?
    private let finished = Atomic<Bool>(false)
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let limit: Int
    private let timeout: TimeInterval
    private(set) var body = Data()
    private(set) var headers: [String: String] = [:]
    private(set) var exceededLimit = false

    init(request: URLRequest, limit: Int) throws {
        guard let easy = curl_easy_init() else {
            throw NetworkError.transport(TransportFailure(kind: .other, message: "curl_easy_init failed"))
        }
        guard let url = request.url?.absoluteString else {
            curl_easy_cleanup(easy)
            throw NetworkError.invalidURL(request.url?.absoluteString ?? "")
        }
        self.easy = easy
        self.limit = limit
        self.timeout = request.timeoutInterval
        let method = request.httpMethod ?? "GET"
        _ = ribcage_curl_easy_setopt_pointer(easy, CURLOPT_URL, url)
        _ = ribcage_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = ribcage_curl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        _ = ribcage_curl_easy_setopt_long(easy, CURLOPT_MAXREDIRS, 10)
        _ = ribcage_curl_easy_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1)
        _ = ribcage_curl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        _ = ribcage_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, Int(max(0.001, timeout) * 1_000))
        if let body = request.httpBody {
            _ = ribcage_curl_easy_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            body.withUnsafeBytes { bytes in
                // COPYPOSTFIELDS: curl keeps its own copy, so the Data may go.
                _ = ribcage_curl_easy_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress)
            }
        }
        if method == "HEAD" {
            _ = ribcage_curl_easy_setopt_long(easy, CURLOPT_NOBODY, 1)
        } else if method != "GET" || request.httpBody != nil {
            _ = ribcage_curl_easy_setopt_pointer(easy, CURLOPT_CUSTOMREQUEST, method)
        }
        // No "Expect: 100-continue" round trip for bodies.
        headerList = curl_slist_append(headerList, "Expect:")
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            headerList = curl_slist_append(headerList, "\(name): \(value)")
        }
        _ = ribcage_curl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, headerList)

        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = ribcage_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        _ = ribcage_curl_easy_setopt_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        _ = ribcage_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        _ = ribcage_curl_easy_setopt_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
            return size * count
        }
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
    }

    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard body.count + bytes.count <= limit else {
            exceededLimit = true
            return 0  // makes curl stop with CURLE_WRITE_ERROR
        }
        body.append(contentsOf: bytes)
        return bytes.count
    }

    private func receiveHeader(_ bytes: UnsafeRawBufferPointer) {
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            headers = [:]  // a new response (after a redirect or a 100 Continue)
            body = Data()
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon])
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }

    func result(for code: CURLcode) -> Result<TransportResponse, any Error> {
        switch code {
        case CURLE_OK:
            var status = 0
            _ = ribcage_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            var effective: UnsafeMutablePointer<CChar>?
            _ = ribcage_curl_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
            let url = effective.flatMap { URL(string: String(cString: $0)) }
            return .success(TransportResponse(statusCode: status, headers: headers, body: body, url: url))
        case CURLE_OPERATION_TIMEDOUT:
            return .failure(NetworkError.timeout(seconds: timeout))
        case CURLE_WRITE_ERROR where exceededLimit:
            return .failure(NetworkError.responseTooLarge(limit: limit))
        default:
            let message = String(cString: curl_easy_strerror(code))
            let kind: TransportFailure.Kind =
                switch code {
                case CURLE_COULDNT_CONNECT: .connectionRefused
                case CURLE_COULDNT_RESOLVE_HOST: .cannotFindHost
                case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING:
                    .connectionLost
                default: .other
                }
            return .failure(
                NetworkError.transport(
                    TransportFailure(kind: kind, message: "\(message) (curl \(code.rawValue))")))
        }
    }

    func finish(_ result: Result<TransportResponse, any Error>) {
        guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
        continuation?.resume(with: result)
        continuation = nil
    }
}
