import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// Makes sure enough file descriptors are free, under `ulimit -n`, before ``Shell`` starts a
/// child, and reports ``RibcageError/outOfFileDescriptors(command:limit:)`` when they are not.
///
/// swift-subprocess 1.0.2 does not survive running out of descriptors while it starts a child:
/// - After `posix_spawn` it opens a pidfd to learn of the child's exit. When that fails
///   (EMFILE) it falls back to waiting for SIGCHLD, which it only listens for when pidfds did not
///   work at its first run: the exit is never noticed, and the run waits for ever. Seen as
///   `ribcage graph` hanging at 15, 16 and 21 descriptors, its `swift package` a zombie.
/// - A descriptor it made itself (a pipe, a copy of one) and drops on a path that throws
///   first traps ("FileDescriptor … was not closed").
///
/// Neither can be fixed from outside the package, so they are kept from happening: children
/// start one at a time in this process, and each only with ``perStart`` descriptors free.
/// Taking turns makes the answer the same from run to run: counted instead, two starts at once
/// needing twice as many, `ribcage graph` at the same limit sometimes started its two children
/// and sometimes refused. A start takes a few milliseconds; the children then run side by side.
///
/// This is a margin, not a guarantee: descriptors that other threads open during a start (a
/// file read, a socket) are not counted, and ``perStart`` is about twice what a start uses.
package enum DescriptorHeadroom {
    /// Descriptors kept free for one start. Traced (`strace -f` on `ribcage graph`), a start
    /// held six at once: the child's input, output and error, its working folder, its pidfd and
    /// swift-subprocess's pipe for the exec's error; the first one also opened swift-subprocess's
    /// process monitor and its reader of output (an epoll and an eventfd each) and the monitor's
    /// probe. Output read as it comes (`--verbose`) adds a pipe and a copy of it.
    package static let perStart = 10

    /// Descriptors kept free, on top of ``perStart``, for the first start: what swift-subprocess
    /// opens on its first use, and Dispatch on threads of its own meanwhile. Seen under load
    /// with `ribcage graph` at 19 descriptors: once the check had passed, swift-subprocess's
    /// monitor and reader, then an epoll, eventfd and timerfd and two of the tool's three
    /// signalfds (Dispatch's) were opened; the child's pidfd then failed, and the run waited for
    /// ever.
    package static let firstStartExtra = 8

    private static let hasStarted = Atomic<Bool>(false)

    private struct Turns {
        var taken = false
        /// The starts waiting, first come first served, with the program each is for.
        var waiting: [(command: String, turn: CheckedContinuation<Void, Never>)] = []
    }

    private static let turns = Mutex(Turns())

    /// Waits for this start's turn, then checks that ``perStart`` descriptors are free (and
    /// ``firstStartExtra`` more for the first) by opening that many at once and closing them
    /// again.
    ///
    /// - Returns: The start, to be ended (``StartInProgress/end()``) once the child has started
    ///   or failed to: the next start waits until then.
    /// - Throws: ``RibcageError/outOfFileDescriptors(command:limit:)`` when they are not free,
    ///   or `CancellationError` when the task was cancelled while it waited; the turn is then
    ///   already over.
    package static func beginStart(of command: String) async throws -> StartInProgress {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            let isFree = turns.withLock { turns in
                guard turns.taken else {
                    turns.taken = true
                    return true
                }
                turns.waiting.append((command, turn))
                return false
            }
            if isFree { turn.resume() }
        }
        let start = StartInProgress(onEnd: passTurn)
        do {
            try Task.checkCancellation()
            let isFirst = !hasStarted.exchange(true, ordering: .relaxed)
            let needed = perStart + (isFirst ? firstStartExtra : 0)
            let probe: FileDescriptor
            do {
                probe = try FileDescriptor.open("/dev/null", .readOnly)
            } catch Errno.tooManyOpenFiles {
                throw RibcageError.outOfFileDescriptors(command: command, limit: softLimit)
            }
            defer { try? probe.close() }
            guard canOpen(needed - 1, copying: probe) else {
                throw RibcageError.outOfFileDescriptors(command: command, limit: softLimit)
            }
            return start
        } catch {
            start.end()
            throw error
        }
    }

    /// Whether a start for `command` is waiting for its turn.
    package static func isWaiting(toStart command: String) -> Bool {
        turns.withLock { turns in turns.waiting.contains { $0.command == command } }
    }

    private static func passTurn() {
        let next = turns.withLock { turns in
            guard !turns.waiting.isEmpty else {
                turns.taken = false
                return nil as CheckedContinuation<Void, Never>?
            }
            return turns.waiting.removeFirst().turn
        }
        next?.resume()
    }

    /// Whether `count` more descriptors can be open at once: they are opened, as copies of
    /// `descriptor`, and closed again.
    package static func canOpen(_ count: Int, copying descriptor: FileDescriptor) -> Bool {
        var copies: [CInt] = []
        copies.reserveCapacity(count)
        defer { for copy in copies { close(copy) } }
        while copies.count < count {
            let copy = fcntl(descriptor.rawValue, F_DUPFD_CLOEXEC, 0)
            guard copy >= 0 else { return false }
            copies.append(copy)
        }
        return true
    }

    /// This process's soft `RLIMIT_NOFILE`, what `ulimit -n` printed where it started (`Int.max`
    /// for "unlimited").
    package static var softLimit: Int {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 0 }
        return Int(clamping: limit.rlim_cur)
    }
}

/// One start of a child, which holds ``DescriptorHeadroom``'s turn until it ends.
package final class StartInProgress: Sendable {
    private let ended = Atomic<Bool>(false)
    private let onEnd: @Sendable () -> Void

    fileprivate init(onEnd: @escaping @Sendable () -> Void) {
        self.onEnd = onEnd
    }

    /// The child has started, or will not: the next start may go. Only the first call counts.
    package func end() {
        guard !ended.exchange(true, ordering: .relaxed) else { return }
        onEnd()
    }
}
