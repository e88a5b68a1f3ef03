import Foundation

/// When and how long to wait before sending a failed request again. The defaults are
/// Alamofire's `RetryPolicy`: 2 retries with exponential backoff from 0.5 s, idempotent methods
/// only, on 408, 500, 502, 503 and 504, on connection failures, invalid responses (as Alamofire
/// retries `badServerResponse`) and timeouts — not on 429, not on cancellation.
public struct RetryPolicy: Sendable {
    /// The most attempts in all, the first included. 1 means no retry.
    public var maximumAttempts: Int
    /// The wait before the first retry, in seconds.
    public var baseDelay: Double
    /// How much each wait grows.
    public var multiplier: Double
    /// The longest wait, including a `Retry-After` the server asked for.
    public var maximumDelay: Double
    /// Up to this fraction of each wait is added at random, so clients do not retry in lockstep.
    public var jitter: Double
    /// The methods that may be retried.
    public var retryableMethods: Set<HTTPMethod>
    /// The statuses that mean "try again" (408, 500, 502, 503 and 504 by default); a
    /// `Retry-After` on such an answer replaces the backoff, up to ``maximumDelay``.
    public var retryableStatusCodes: Set<Int>
    /// The transport failures that are retried.
    public var retryableFailures: Set<TransportFailure.Kind>
    /// Whether a timeout is retried.
    public var retriesTimeouts: Bool

    /// Alamofire's defaults.
    public static let `default` = RetryPolicy()
    /// Never retry.
    public static let never = RetryPolicy(maximumAttempts: 1)

    /// Creates a policy; every parameter defaults to Alamofire's value.
    public init(
        maximumAttempts: Int = 3, baseDelay: Double = 0.5, multiplier: Double = 2, maximumDelay: Double = 30,
        jitter: Double = 0.2,
        retryableMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options, .trace],
        retryableStatusCodes: Set<Int> = [408, 500, 502, 503, 504],
        retryableFailures: Set<TransportFailure.Kind> = [
            .connectionRefused, .connectionLost, .cannotFindHost, .invalidResponse,
        ],
        retriesTimeouts: Bool = true
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.baseDelay = baseDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.jitter = jitter
        self.retryableMethods = retryableMethods
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableFailures = retryableFailures
        self.retriesTimeouts = retriesTimeouts
    }

    /// The seconds to wait before attempt `attempt + 1`, or `nil` not to retry.
    ///
    /// - Parameters:
    ///   - attempt: The attempt that just failed, from 1.
    ///   - method: The request's method.
    ///   - outcome: The response (any status) or the error.
    ///   - random: Where in the jitter the delay falls, from 0 to 1; a random value when `nil`.
    ///     It is drawn only for a backoff, as each draw is a system call.
    public func delay(
        afterAttempt attempt: Int, method: HTTPMethod, outcome: Result<Response, NetworkError>,
        random: Double? = nil
    ) -> Double? {
        guard attempt < maximumAttempts, retryableMethods.contains(method) else { return nil }
        var retryAfter: Double?
        switch outcome {
        case .success(let response):
            guard retryableStatusCodes.contains(response.statusCode) else { return nil }
            retryAfter = response.value(forHTTPHeaderField: "Retry-After").flatMap {
                Self.parseRetryAfter($0)
            }
        case .failure(.transport(let failure)):
            guard retryableFailures.contains(failure.kind) else { return nil }
        case .failure(.timeout):
            guard retriesTimeouts else { return nil }
        case .failure:
            return nil
        }
        if let retryAfter { return min(maximumDelay, retryAfter) }
        let backoff = baseDelay * pow(multiplier, Double(attempt - 1))
        return min(maximumDelay, backoff * (1 + jitter * (random ?? Double.random(in: 0...1))))
    }

    /// `Retry-After` as seconds: a number of seconds, or an HTTP date in any of its three
    /// formats (RFC 9110 §10.2.3); `nil` for anything else.
    static func parseRetryAfter(_ value: String, now: Date = Date()) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let first = trimmed.utf8.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) {
            // delay-seconds is digits only; a fraction is accepted, nothing else ("inf", "-1").
            guard trimmed.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || (48...57).contains($0) }),
                let seconds = Double(trimmed)
            else { return nil }
            return seconds
        }
        guard let date = HTTPDate.parse(trimmed, now: now) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
