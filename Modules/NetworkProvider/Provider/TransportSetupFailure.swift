import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a transport could not get ready to send anything: a system resource it needs could not be
/// created, so the request never left the process.
///
/// On Linux that is nearly always the process's or the system's limit on open descriptors
/// (`EMFILE`, `ENFILE`) or memory (`ENOMEM`): states that pass when descriptors are closed, so a
/// transport that failed this way tries again at its next request rather than stay broken.
/// ``RetryPolicy`` does not retry it: a backoff of a second rarely frees descriptors, and the
/// failure costs nothing to report at once.
public struct TransportSetupFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// A resource a transport creates before its first request.
    public struct Resource: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The resource as a person reads it, e.g. `epoll instance`.
        public let rawValue: String

        /// A resource named `rawValue`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// libcurl's multi handle (`curl_multi_init`), which gives no reason when it fails: in
        /// practice, out of memory.
        public static let curlMultiHandle = Resource(rawValue: "curl multi handle")
        /// The epoll instance that watches curl's sockets (`epoll_create1`).
        public static let epoll = Resource(rawValue: "epoll instance")
        /// The eventfd other threads wake the loop thread with (`eventfd`).
        public static let eventfd = Resource(rawValue: "eventfd")
        /// The timerfd that stands for curl's timer (`timerfd_create`).
        public static let timerfd = Resource(rawValue: "timerfd")
        /// The loop's thread (`pthread_create`), limited by `RLIMIT_NPROC`, the kernel's
        /// `threads-max` and memory for its stack.
        public static let thread = Resource(rawValue: "thread")
        /// The epoll entry for the loop's own eventfd or timerfd (`epoll_ctl`), limited by the
        /// kernel's `max_user_watches`.
        public static let epollWatch = Resource(rawValue: "epoll watch")

        /// The resource's name, as in ``TransportSetupFailure/description``.
        public var description: String { rawValue }
    }

    /// What could not be created.
    public var resource: Resource
    /// The system's reason (`errno`), or `nil` when the call that failed gives none.
    public var code: POSIXErrorCode?

    /// A failure to create `resource`, for the reason `code`.
    public init(resource: Resource, code: POSIXErrorCode?) {
        self.resource = resource
        self.code = code
    }

    /// The failure to create `resource`, with the reason the calling thread's `errno` holds now.
    static func lastError(creating resource: Resource) -> TransportSetupFailure {
        TransportSetupFailure(resource: resource, code: POSIXErrorCode(rawValue: errno))
    }

    /// The system's text for ``code``, e.g. `Too many open files`.
    public var reason: String {
        guard let code else { return "no reason given (out of memory?)" }
        return String(cString: strerror(code.rawValue))
    }

    /// E.g. `The transport could not create its epoll instance: Too many open files (errno 24)`.
    public var description: String {
        "The transport could not create its \(resource): \(reason)"
            + (code.map { " (errno \($0.rawValue))" } ?? "")
    }
}
