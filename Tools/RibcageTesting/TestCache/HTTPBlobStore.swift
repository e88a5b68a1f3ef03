import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server speaking Bazel's HTTP remote-cache protocol: `GET` and `PUT` of `/ac/<key>` and
/// `/cas/<sha256>` under a base URL. bazel-remote, nginx with WebDAV `PUT`, or any server that
/// stores what it is given serves.
///
/// Every request is bounded by ``timeout`` from start to last byte, so a slow or stalled server
/// costs a known delay, never a hung CI job. Credentials in the URL (`https://user:token@host`)
/// are sent as HTTP Basic authentication and never appear in ``displayName`` or an error.
package struct HTTPBlobStore: BlobStore {
    /// The base URL, without credentials.
    package let baseURL: URL
    /// The longest a request may take.
    package let timeout: Duration
    private let authorization: String?
    private let session: URLSession

    /// A store at `url`.
    ///
    /// - Throws: ``TestCacheError/badURL(_:)`` when `url` is not http(s).
    package init(url: String, timeout: Duration = .seconds(10)) throws {
        guard var parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
            ["http", "https"].contains(scheme), parts.host?.isEmpty == false
        else { throw TestCacheError.badURL(Self.redacted(url)) }
        if let user = parts.user {
            let secret =
                "\(user.removingPercentEncoding ?? user):\(parts.password?.removingPercentEncoding ?? "")"
            authorization = "Basic " + Data(secret.utf8).base64EncodedString()
        } else {
            authorization = nil
        }
        parts.user = nil
        parts.password = nil
        if parts.path.hasSuffix("/") { parts.path.removeLast() }
        guard let base = parts.url else { throw TestCacheError.badURL(Self.redacted(url)) }
        baseURL = base
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        session = URLSession(configuration: configuration)
    }

    /// `url` with any user and password replaced by `***`, for messages.
    package static func redacted(_ url: String) -> String {
        guard var parts = URLComponents(string: url), parts.user != nil || parts.password != nil else {
            // Not parseable: hide everything between the scheme and an `@`.
            if let at = url.lastIndex(of: "@"), let scheme = url.range(of: "://") {
                return String(url[..<scheme.upperBound]) + "***@" + String(url[url.index(after: at)...])
            }
            return url
        }
        parts.user = "***"
        parts.password = nil
        return parts.string ?? "(a URL)"
    }

    package var displayName: String { baseURL.absoluteString }

    package func get(_ area: CacheArea, _ hash: String, size: Int64?) async throws -> Data? {
        let (status, body) = try await send("GET", area, hash, body: nil)
        switch status {
        case 200: return body
        case 404: return nil
        default: throw TestCacheError.httpStatus(status, method: "GET", url: url(area, hash).absoluteString)
        }
    }

    package func put(_ area: CacheArea, _ hash: String, _ data: Data) async throws {
        let (status, _) = try await send("PUT", area, hash, body: data)
        guard (200..<300).contains(status) else {
            throw TestCacheError.httpStatus(status, method: "PUT", url: url(area, hash).absoluteString)
        }
    }

    private func url(_ area: CacheArea, _ hash: String) -> URL {
        baseURL.appendingPathComponent(area.rawValue).appendingPathComponent(hash)
    }

    private func send(_ method: String, _ area: CacheArea, _ hash: String, body: Data?) async throws -> (
        Int, Data
    ) {
        guard hash.count == 64, hash.allSatisfy(\.isHexDigit) else { throw TestCacheError.badHash(hash) }
        let target = url(area, hash)
        var request = URLRequest(url: target)
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type") }
        if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        let exchange = Exchange()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        let reason =
                            (error as? URLError)?.code == .timedOut
                            ? "no answer within \(timeout)" : error.localizedDescription
                        exchange.finish(
                            continuation,
                            .failure(TestCacheError.unreachable(url: target.absoluteString, reason: reason)))
                    } else if let response = response as? HTTPURLResponse {
                        exchange.finish(continuation, .success((response.statusCode, data ?? Data())))
                    } else {
                        exchange.finish(
                            continuation,
                            .failure(
                                TestCacheError.unreachable(
                                    url: target.absoluteString, reason: "no HTTP response")))
                    }
                }
                exchange.start(task)
                // URLSession's own timeouts are per idle period on some platforms; this one
                // bounds the whole exchange, a server that trickles bytes included.
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(timeout.nanoseconds))) {
                    exchange.finish(
                        continuation,
                        .failure(
                            TestCacheError.unreachable(
                                url: target.absoluteString, reason: "no answer within \(timeout)")))
                }
            }
        } onCancel: {
            exchange.cancel()
        }
    }
}

/// One request's task and whether its continuation was resumed: the first of the answer, the
/// deadline and cancellation wins, and the others do nothing.
private final class Exchange: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var finished = false

    func start(_ task: URLSessionDataTask) {
        lock.withLock { self.task = task }
        task.resume()
    }

    func finish(
        _ continuation: CheckedContinuation<(Int, Data), any Error>, _ result: Result<(Int, Data), any Error>
    ) {
        let first = lock.withLock {
            defer { finished = true }
            return !finished
        }
        guard first else { return }
        lock.withLock { task }?.cancel()
        continuation.resume(with: result)
    }

    func cancel() {
        lock.withLock { task }?.cancel()
    }
}

extension Duration {
    fileprivate var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
