import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How ``NetworkProvider`` follows a redirect, the same way over every transport (RFC 9110
/// §15.4):
///
/// - 307 and 308 repeat the method and the body.
/// - 303 becomes `GET` without a body (`HEAD` stays `HEAD`).
/// - 301 and 302 turn a `POST` into a `GET` without a body, as browsers and curl do; other
///   methods are repeated with their body.
/// - Other 3xx answers (300, 304, …) and a 3xx without `Location` are responses, not redirects.
/// - `Location` is resolved against the URL that answered; only `http` and `https` are followed.
/// - A redirect to another origin (scheme, host or port) drops `Authorization`,
///   `Proxy-Authorization`, `Cookie`, `x-api-key` and the target's
///   ``TargetType/sensitiveHeaders``.
enum Redirection {
    /// Headers never sent to another origin, whatever the target says, lower-cased.
    static let credentialHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "x-api-key",
    ]

    /// Headers that describe a body, dropped with it.
    private static let contentHeaders = [
        "Content-Type", "Content-Length", "Content-Encoding", "Content-Language", "Content-Location",
        "Transfer-Encoding",
    ]

    /// The request to send after `request` was answered with `statusCode` and `headers`, or
    /// `nil` when that answer is the response.
    ///
    /// - Throws: ``NetworkError/transport(_:)`` (``TransportFailure/Kind/invalidResponse``) for a
    ///   `Location` that cannot be followed.
    static func request(
        after request: URLRequest, statusCode: Int, headers: [String: String], sensitiveHeaders: Set<String>
    ) throws(NetworkError) -> URLRequest? {
        guard isRedirect(statusCode),
            let location = headers.first(where: { $0.key.lowercased() == "location" })?.value,
            let current = request.url
        else { return nil }
        let encoded = PercentEncoding.encode(
            location.trimmingCharacters(in: .whitespaces), as: .reference)
        guard let next = URL(string: encoded, relativeTo: current)?.absoluteURL,
            let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https", next.host != nil
        else {
            throw .transport(
                TransportFailure(
                    kind: .invalidResponse,
                    message: "HTTP \(statusCode) to a location that cannot be followed: \(location)"))
        }
        var redirected = request
        redirected.url = next
        let method = (request.httpMethod ?? "GET").uppercased()
        let becomesGET =
            switch statusCode {
            case 303: method != "HEAD"
            case 301, 302: method == "POST"
            default: false
            }
        if becomesGET {
            redirected.httpMethod = "GET"
            redirected.httpBody = nil
            for name in contentHeaders { redirected.setValue(nil, forHTTPHeaderField: name) }
        }
        if !isSameOrigin(current, next) {
            let dropped = credentialHeaders.union(sensitiveHeaders.map { $0.lowercased() })
            for name in (redirected.allHTTPHeaderFields ?? [:]).keys where dropped.contains(name.lowercased())
            {
                redirected.setValue(nil, forHTTPHeaderField: name)
            }
        }
        return redirected
    }

    /// Whether `statusCode` is one this type follows; checked before anything else, on every
    /// response.
    private static func isRedirect(_ statusCode: Int) -> Bool {
        switch statusCode {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }

    /// Whether two URLs share scheme, host and port (RFC 6454), default ports included.
    static func isSameOrigin(_ a: URL, _ b: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int) {
            let scheme = url.scheme?.lowercased() ?? ""
            return (scheme, url.host?.lowercased() ?? "", url.port ?? (scheme == "https" ? 443 : 80))
        }
        return origin(a) == origin(b)
    }
}
