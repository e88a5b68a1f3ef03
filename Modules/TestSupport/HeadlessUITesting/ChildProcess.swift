import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Starting a program as a shell does, for tests that drive a real one in a terminal.
///
/// The child starts with no signal blocked and every signal at its default action: the spawning
/// thread may carry a dispatch worker's mask, and a child that inherited it would neither get
/// SIGWINCH, nor hang up, nor stop on SIGTSTP.
///
/// It also starts with no descriptor but the three standard ones. Libraries in the test process
/// open sockets without close-on-exec (swift-nio's, and FoundationNetworking's libcurl), and a
/// child that inherited one kept that connection open for its whole life, so a server in
/// another test never saw its client hang up.
package enum ChildProcess {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// Spawns `arguments` (the first found on `PATH` unless it is a path) with `environment`
    /// (this process's own when `nil`); `fileActions` sets its descriptors. With
    /// `ownProcessGroup`, it leads a process group of its own, as a shell starts a job.
    ///
    /// - Returns: Its pid, for ``wait(for:)``.
    package static func spawn(
        _ arguments: [String], environment: [String: String]? = nil, ownProcessGroup: Bool = false,
        fileActions: (inout posix_spawn_file_actions_t) -> Void
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        fileActions(&actions)
        closeInheritedDescriptors(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        let group = ownProcessGroup ? Int32(POSIX_SPAWN_SETPGROUP) : 0
        posix_spawnattr_setflags(
            &attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | group))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let variables = environment ?? ProcessInfo.processInfo.environment
        var envp: [UnsafeMutablePointer<CChar>?] =
            variables.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, &envp)
        guard status == 0 else {
            throw Failure(description: "cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        }
        return pid
    }

    /// Adds the closing of every descriptor above standard error, after the caller's own actions
    /// (which may have moved a descriptor onto 0, 1 or 2).
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        if let closeFrom = addCloseFrom, closeFrom(&actions, STDERR_FILENO + 1) == 0 { return }
        // Without glibc 2.34's closefrom action: each descriptor open now. One another thread
        // closes meanwhile makes its close fail in the child, which glibc ignores. Without
        // /proc, the child inherits them, as it did before.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > STDERR_FILENO {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not import; `nil` on an older C library.
    private static let addCloseFrom:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }()

    /// Waits for `pid` on the calling thread, which must be a thread of the caller's own, never
    /// one of the cooperative pool's.
    ///
    /// - Returns: Its exit status, or 128 plus the number of the signal that ended it.
    package static func wait(for pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Spawns `arguments` as ``spawn(_:environment:ownProcessGroup:fileActions:)`` does and
    /// waits for it on a thread of its own, so that no thread of the cooperative pool blocks.
    ///
    /// - Returns: Its exit status, as ``wait(for:)`` gives it.
    package static func run(
        _ arguments: [String],
        fileActions: @escaping @Sendable (inout posix_spawn_file_actions_t) -> Void
    ) async throws -> Int32 {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    let pid = try spawn(arguments, fileActions: fileActions)
                    continuation.resume(returning: wait(for: pid))
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }
}
