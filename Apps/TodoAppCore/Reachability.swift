import BlockingWork
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
        // getaddrinfo blocks for as long as the resolver takes: on a thread of its own, so that a
        // hanging resolver never holds one of the cooperative pool's threads.
        await DedicatedThread.run(named: "Reachability lookup", givingUpAfter: timeout) { resolves(host) }
            ?? false
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
