import Foundation

/// Everything a request can fail with.
public enum NetworkError: Error, CustomStringConvertible {
    /// The target's URL could not be built.
    case invalidURL(String)
    /// The request body could not be encoded.
    case encoding(underlying: any Error)
    /// The request did not get a response: refused, reset, DNS, TLS…
    case transport(TransportFailure)
    /// The response's status code failed the target's validation.
    case statusCode(Response)
    /// The body did not decode; `codingPath` says where.
    case decoding(Response, codingPath: [String], underlying: any Error)
    /// The task was cancelled.
    case cancelled
    /// No response within the timeout.
    case timeout(seconds: Double?)
    /// The body exceeded the transport's size limit.
    case responseTooLarge(limit: Int)
    /// The transport could not create a resource it needs to send anything (out of descriptors
    /// or memory); the request never left. The transport tries again at the next request.
    case transportUnavailable(TransportSetupFailure)

    /// The response, for the cases that have one.
    public var response: Response? {
        switch self {
        case .statusCode(let response), .decoding(let response, _, _): response
        default: nil
        }
    }

    /// A message for a person, without secrets: no headers and no body.
    public var description: String {
        switch self {
        case .invalidURL(let url): "Invalid URL: \(url)"
        case .encoding(let error): "The request body could not be encoded: \(error)"
        case .transport(let failure): "No response: \(failure)"
        case .statusCode(let response):
            "HTTP \(response.statusCode) from \(response.url?.absoluteString ?? "?")"
        case .decoding(_, let path, let error):
            "The response did not decode at \(path.isEmpty ? "the top level" : path.joined(separator: ".")): \(error)"
        case .cancelled: "The request was cancelled."
        case .timeout(let seconds): "The request timed out" + (seconds.map { " after \($0) s." } ?? ".")
        case .responseTooLarge(let limit): "The response is larger than the limit of \(limit) bytes."
        case .transportUnavailable(let failure): "\(failure)."
        }
    }
}

/// Why a request got no usable response, in terms every transport shares: each cause has one
/// kind on every transport, which the conformance suite checks.
public struct TransportFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure. ``RetryPolicy`` retries all but ``other`` and ``tooManyRedirects``
    /// by default.
    public enum Kind: Sendable, Equatable {
        /// Nothing listens there.
        case connectionRefused
        /// The connection closed or was reset before the response was complete: no answer at
        /// all, an answer cut short, or a body shorter than its `Content-Length`.
        case connectionLost
        /// The host name did not resolve.
        case cannotFindHost
        /// The answer is not valid HTTP: a malformed status line or header (HTTP/0.9 among them,
        /// or a first line that is no status line at all), a bad chunk size, a body that does not
        /// decode from its `Content-Encoding`, or a redirect whose `Location` cannot be followed.
        case invalidResponse
        /// More redirects than ``NetworkProvider/maximumRedirects`` in a row.
        case tooManyRedirects
        /// Any other failure (TLS, for one).
        case other
    }

    /// The kind of failure.
    public var kind: Kind
    /// The transport's own message.
    public var message: String

    /// A failure of `kind`, which code matches on, with the transport's `message` for people.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// `message (kind)`.
    public var description: String { "\(message) (\(kind))" }
}
