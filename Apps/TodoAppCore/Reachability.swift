import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether the public API can be reached at all, to choose `--offline` by default on a
/// machine without internet.
enum Reachability {
    /// Whether `host` resolves within `timeout`. A resolver that hangs counts as no: the answer
    /// comes at the timeout, and the lookup is left to finish on its own.
    static func canResolve(_ host: String, timeout: Duration = .milliseconds(1500)) async -> Bool {
        let answer = Answer()
        return await withCheckedContinuation { continuation in
            answer.continuation = continuation
            // getaddrinfo blocks for as long as the resolver takes: on a thread of its own, so
            // that a hanging resolver never holds one of the cooperative pool's threads.
            let lookup = Thread { answer.give(resolves(host)) }
            lookup.name = "Reachability lookup"
            lookup.start()
            Task.detached {
                try? await Task.sleep(for: timeout)
                answer.give(false)
            }
        }
    }

    /// The first of two answers.
    private final class Answer: @unchecked Sendable {
        // Guarded by `lock`.
        private let lock = NSLock()
        var continuation: CheckedContinuation<Bool, Never>?

        func give(_ value: Bool) {
            lock.lock()
            let waiting = continuation
            continuation = nil
            lock.unlock()
            waiting?.resume(returning: value)
        }
    }

    private static func resolves(_ host: String) -> Bool {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, "443", &hints, &result)
        if let result { freeaddrinfo(result) }
        return status == 0
    }
}
