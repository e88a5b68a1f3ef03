import Foundation
import Logging

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Logs requests and responses through swift-log, never logging secrets: the values of
/// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and `x-api-key` headers (in
/// any case), and of the target's ``TargetType/sensitiveHeaders``, are replaced by
/// `<redacted>`, and bodies are logged only when asked for.
public struct NetworkLoggerPlugin: PluginType {
    /// What to log.
    public struct Options: OptionSet, Sendable {
        /// The options as bits, one per static member below.
        public let rawValue: Int
        /// Creates options from a raw value.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Method and URL (always logged).
        public static let method = Options(rawValue: 1 << 0)
        /// Headers, redacted.
        public static let headers = Options(rawValue: 1 << 1)
        /// Request and response bodies, up to 1 KiB each.
        public static let bodies = Options(rawValue: 1 << 2)
        /// Method and headers.
        public static let `default`: Options = [.method, .headers]
        /// Everything.
        public static let verbose: Options = [.method, .headers, .bodies]
    }

    /// Header names whose values are never logged, lower-cased.
    public static let redactedHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
    ]

    private let logger: Logger
    private let options: Options
    private let extraRedactedHeaders: Set<String>

    /// Creates a logger plugin.
    ///
    /// - Parameters:
    ///   - logger: Where to log; requests at `.debug`, failures at `.warning`.
    ///   - options: What to log.
    ///   - redacting: More header names to redact.
    public init(
        logger: Logger = Logger(label: "ribcage.network"), options: Options = .default,
        redacting: Set<String> = []
    ) {
        self.logger = logger
        self.options = options
        self.extraRedactedHeaders = Set(redacting.map { $0.lowercased() })
    }

    /// Logs the request line, and headers and body as configured.
    public func willSend(_ request: URLRequest, target: any TargetType) {
        var lines = ["→ \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "?")"]
        if options.contains(.headers) {
            lines += redacted(request.allHTTPHeaderFields ?? [:], also: target.sensitiveHeaders).map {
                "  \($0): \($1)"
            }
        }
        if options.contains(.bodies), let body = request.httpBody {
            lines.append("  body: \(Self.preview(body))")
        }
        logger.debug("\(lines.joined(separator: "\n"))")
    }

    /// Logs the status, or the failure.
    public func didReceive(_ result: Result<Response, NetworkError>, target: any TargetType) {
        switch result {
        case .success(let response):
            var lines = [
                "← \(response.statusCode) \(response.url?.absoluteString ?? "?") (\(response.data.count) bytes)"
            ]
            if options.contains(.headers) {
                lines += redacted(response.headers, also: target.sensitiveHeaders).map { "  \($0): \($1)" }
            }
            if options.contains(.bodies) { lines.append("  body: \(Self.preview(response.data))") }
            logger.debug("\(lines.joined(separator: "\n"))")
        case .failure(let error):
            logger.warning("✗ \(target.method.rawValue) \(target.path): \(error)")
        }
    }

    /// The headers with secret values replaced, sorted by name for stable output.
    ///
    /// - Parameter also: More names to redact for this call, in any case.
    public func redacted(_ headers: [String: String], also: Set<String> = []) -> [(String, String)] {
        let more = Set(also.map { $0.lowercased() })
        return headers.sorted { $0.key.lowercased() < $1.key.lowercased() }.map { name, value in
            let lowered = name.lowercased()
            let secret =
                Self.redactedHeaders.contains(lowered) || extraRedactedHeaders.contains(lowered)
                || more.contains(lowered)
            return (name, secret ? "<redacted>" : value)
        }
    }

    private static func preview(_ data: Data) -> String {
        let text = String(decoding: data.prefix(1_024), as: UTF8.self)
        return data.count > 1_024 ? text + "… (\(data.count) bytes)" : text
    }
}
