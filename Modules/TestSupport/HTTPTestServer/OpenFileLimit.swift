#if canImport(Glibc)
    import Glibc
#endif

/// Raises this process's soft limit on open files to its hard limit, once, as the first server
/// starts.
///
/// One test process runs every suite at once, and the network suites alone then hold hundreds of
/// descriptors: each server's listener and stop pipe, and both ends of every connection, since
/// client and server share the process. A full `swift test` here peaked at 1,209. A Debian login
/// shell's soft limit is 1,024, and under it plain `swift test` failed dozens of network tests
/// with EMFILE. The hard limit is what the system grants the process; the soft one is a default
/// for programs that never need more. If it cannot be raised, the tests run under the old limit.
package enum OpenFileLimit {
    package static let raised: Void = {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
    }()

    #if canImport(Glibc)
        private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resource = RLIMIT_NOFILE
    #endif
}
