import CCurl
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request's easy handle and what has come back so far.
final class CurlTransfer: @unchecked Sendable {
    // @unchecked: configured before it is handed to the multi handle, then touched only under
    // the multi handle's lock (`CurlMultiLoop`), by whichever thread holds it;
    // `cancelRequested` is the one field other threads write.

    /// Who waits for the outcome.
    enum Mode {
        case pending
        case buffered(CheckedContinuation<Result<TransportResponse, NetworkError>, Never>)
        /// `head` until the head has arrived; the body is handed over with it.
        case streaming(
            head: CheckedContinuation<Result<TransportStream, NetworkError>, Never>?, body: ResponseBody?,
            source: ResponseBody.Source)
        case done
    }

    let easy: UnsafeMutableRawPointer
    var mode = Mode.pending
    /// Set, from any thread, before a cancel command is posted.
    let cancelRequested = Atomic<Bool>(false)

    private let limit: Int
    private let timeout: TimeInterval
    /// The URL that answers: the request's, as curl follows no redirect.
    private let url: URL
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var status = 0
    private var headers: [String: String] = [:]
    private var body = Data()
    private var received = 0
    private var exceededLimit = false
    /// Set when the reader of a streamed body is a buffer behind; cleared by a resume command.
    private var receivingPaused = false

    init(request: URLRequest, limit: Int) throws(NetworkError) {
        // Each read of `request.url` bridges from NSURL, so it is read once.
        let given = request.url
        guard let requestURL = given, let scheme = requestURL.scheme?.lowercased(),
            scheme == "http" || scheme == "https"
        else {
            throw .invalidURL(given?.absoluteString ?? "")
        }
        let url = requestURL.absoluteString
        self.url = requestURL
        guard let easy = curl_easy_init() else {
            throw .transport(TransportFailure(kind: .other, message: "curl_easy_init failed"))
        }
        self.easy = easy
        self.limit = limit
        self.timeout = request.timeoutInterval
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(to: 0)
        let method = request.httpMethod ?? "GET"
        _ = ribcage_curl_easy_setopt_pointer(easy, CURLOPT_URL, url)
        _ = ribcage_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = ribcage_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        // NetworkProvider follows redirects itself, the same way for every transport.
        _ = ribcage_curl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        _ = ribcage_curl_easy_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1)
        _ = ribcage_curl_easy_open_sockets_cloexec(easy)
        _ = ribcage_curl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        _ = ribcage_curl_easy_setopt_long(
            easy, CURLOPT_TIMEOUT_MS, Int((max(0.001, timeout) * 1_000).rounded()))
        // A Content-Length over the limit fails before the body is read.
        _ = ribcage_curl_easy_setopt_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))
        let headerFields = request.allHTTPHeaderFields ?? [:]
        let acceptEncoding = headerFields.first { $0.key.lowercased() == "accept-encoding" }?.value
        // Curl sends this header and decodes what the server compressed with it.
        _ = ribcage_curl_easy_setopt_pointer(
            easy, CURLOPT_ACCEPT_ENCODING, acceptEncoding ?? URLRequest.acceptedContentCodings)
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
        for (name, value) in headerFields where name.lowercased() != "accept-encoding" {
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
        errorBuffer.deallocate()
    }

    // MARK: - Callbacks, under the multi handle's lock

    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        if receivingPaused { return ribcage_curl_writefunc_pause }  // curl delivers it again later
        guard received + bytes.count <= limit else {
            exceededLimit = true
            return 0  // makes curl stop with CURLE_WRITE_ERROR
        }
        received += bytes.count
        switch mode {
        case .buffered:
            body.append(contentsOf: bytes)
        case .streaming(_, _, let source):
            deliverHead()
            if !source.yield(Data(bytes)) { receivingPaused = true }
        case .pending, .done:
            break
        }
        return bytes.count
    }

    /// One line of the head, as curl hands it over: the status line, a field, or the empty
    /// line that ends the head. Parsed as bytes: trimming each line through Foundation took
    /// about 20 µs a response.
    private func receiveHeader(_ bytes: UnsafeRawBufferPointer) {
        let line = HeaderLine.trimmed(bytes[...])
        if line.starts(with: HeaderLine.httpPrefix) {
            // A new response: the first, or the one after a 100 Continue.
            status = HeaderLine.statusCode(ofStatusLine: line) ?? 0
            headers = [:]
        } else if line.isEmpty {
            if status >= 200 { deliverHead() }
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            let name = String(decoding: line[..<colon], as: UTF8.self)
            let value = String(decoding: HeaderLine.trimmed(line[(colon + 1)...]), as: UTF8.self)
            // Repeated fields combine into one list (RFC 9110 §5.3).
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
    }

    /// Hands a stream's head to its caller, once.
    private func deliverHead() {
        guard case .streaming(let head?, let body?, let source) = mode else { return }
        mode = .streaming(head: nil, body: nil, source: source)
        head.resume(
            returning: .success(TransportStream(statusCode: status, headers: headers, body: body, url: url)))
    }

    /// Lets a paused stream receive again, once its reader has caught up.
    func resumeReceiving() {
        guard receivingPaused else { return }
        receivingPaused = false
        _ = ribcage_curl_easy_unpause(easy)
    }

    // MARK: - The outcome

    /// The transfer ended with `code`.
    func complete(_ code: CURLcode) {
        guard code == CURLE_OK else {
            fail(error(for: code))
            return
        }
        switch mode {
        case .buffered(let continuation):
            continuation.resume(
                returning: .success(
                    TransportResponse(statusCode: status, headers: headers, body: body, url: url)))
        case .streaming:
            deliverHead()
            if case .streaming(_, _, let source) = mode { source.finish() }
        case .pending, .done:
            break
        }
        mode = .done
    }

    /// The transfer failed, or was cancelled.
    func fail(_ error: NetworkError) {
        switch mode {
        case .buffered(let continuation):
            continuation.resume(returning: .failure(error))
        case .streaming(let head, _, let source):
            if let head { head.resume(returning: .failure(error)) } else { source.fail(error) }
        case .pending, .done:
            break
        }
        mode = .done
    }

    private func error(for code: CURLcode) -> NetworkError {
        let detail = String(cString: errorBuffer)
        let message =
            (detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail) + " (curl \(code.rawValue))"
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout(seconds: timeout)
        case CURLE_WRITE_ERROR where exceededLimit, CURLE_FILESIZE_EXCEEDED:
            return .responseTooLarge(limit: limit)
        case CURLE_COULDNT_CONNECT:
            return .transport(TransportFailure(kind: .connectionRefused, message: message))
        case CURLE_COULDNT_RESOLVE_HOST:
            return .transport(TransportFailure(kind: .cannotFindHost, message: message))
        case CURLE_RECV_ERROR where detail.contains("chunked-encoding"),
            CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_UNSUPPORTED_PROTOCOL:
            return .transport(TransportFailure(kind: .invalidResponse, message: message))
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING:
            return .transport(TransportFailure(kind: .connectionLost, message: message))
        default:
            return .transport(TransportFailure(kind: .other, message: message))
        }
    }
}

/// The bytes of a head's line, as curl hands them to the header callback.
private enum HeaderLine {
    typealias Bytes = Slice<UnsafeRawBufferPointer>

    static let httpPrefix = Array("HTTP/".utf8)

    /// `bytes` without the spaces, tabs and line ends around them.
    static func trimmed(_ bytes: Bytes) -> Bytes {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isBlank(bytes[start]) { start += 1 }
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        return bytes[start..<end]
    }

    /// The status code of `HTTP/1.1 200 OK` or `HTTP/2 200`: the second field, if it is a number.
    static func statusCode(ofStatusLine line: Bytes) -> Int? {
        guard var index = line.firstIndex(of: UInt8(ascii: " ")) else { return nil }
        while index < line.endIndex, line[index] == UInt8(ascii: " ") { index += 1 }
        var code = 0
        var digits = 0
        while index < line.endIndex, line[index] != UInt8(ascii: " ") {
            let digit = line[index] &- UInt8(ascii: "0")
            guard digit < 10, digits < 9 else { return nil }
            code = code * 10 + Int(digit)
            digits += 1
            index += 1
        }
        return digits > 0 ? code : nil
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\n")
    }
}
