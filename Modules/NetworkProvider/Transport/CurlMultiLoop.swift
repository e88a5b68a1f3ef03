import CCurl
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A libcurl multi handle driven the way libcurl's event API is meant to be used: epoll
/// watches the sockets curl asks for and a timerfd stands for curl's timer, and each wakeup hands
/// curl only the sockets that are ready or the timer that is due (`curl_multi_socket_action`).
///
/// `curl_multi_perform` would instead visit every transfer on every wakeup, each with a `poll`
/// system call of its own to learn whether its socket is ready; with 16 transfers in flight that
/// was most of the loop's time.
///
/// The multi handle is used under one lock, by the loop thread or by a task adding a transfer:
/// when the lock is free, the task starts its transfer itself (curl's calls do not block), so a
/// request is sent without waking the loop thread, which then only waits for the answer. When
/// the lock is taken, the task leaves a command for the loop thread, which is awake; commands
/// wake the thread (an eventfd write) only while it sleeps in `epoll_wait`.
final class CurlMultiLoop: @unchecked Sendable {
    // @unchecked: `active`, `watched`, `timerDue` and the multi handle are used only under
    // `multiLock`, including by curl's callbacks, which run inside the curl calls made under it;
    // `inbox` has its own lock; the file descriptors are used only through thread-safe system
    // calls.

    /// What other threads ask of the loop thread, in the order they asked.
    enum Command {
        case add(CurlTransfer)
        case cancel(CurlTransfer)
        case resume(CurlTransfer)
        /// The owner is gone: end the thread once no transfer is left.
        case retire
    }

    private struct Inbox {
        var commands: [Command] = []
        /// Whether the loop thread waits in `epoll_wait` and needs waking.
        var sleeping = false
        /// The loop thread has ended; commands are dropped.
        var ended = false
    }

    private let threadName: String
    private let multi: UnsafeMutableRawPointer
    private let epoll: Int32
    private let wakeup: Int32
    /// Armed for curl's timer when it is due later; a timer due at once is `timerDue`.
    private let timer: Int32
    private let multiLock = Mutex(())
    private let inbox = Mutex(Inbox())
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// The sockets epoll watches for curl.
    private var watched: Set<curl_socket_t> = []
    /// Curl asked to be called back at once; whoever holds `multiLock` does so before letting go.
    private var timerDue = false
    /// Transfers handed to `add` that have not ended; read without the lock to pick a loop.
    private let inFlight = Atomic<Int>(0)
    /// How many times the loop thread has come back from `epoll_wait`.
    private let wakeupCount = Atomic<Int>(0)
    /// The loop thread's kernel thread id, 0 until it starts and after it ends.
    private let threadID = Atomic<Int32>(0)
    /// Set by `.retire`: the thread ends when `active` is empty.
    private var retired = false
    /// Signalled when the loop thread has ended and closed the loop's descriptors.
    let closed = OneTimeSignal()

    /// Creates the loop's descriptors and multi handle and starts its thread, which runs until
    /// ``retire()`` and, after it, the last transfer's end.
    ///
    /// Throws when epoll, the eventfd, the timerfd, curl's multi handle or the thread cannot be
    /// created or the loop's descriptors cannot join the epoll set: the process is out of
    /// descriptors (`EMFILE`, `ENFILE`), of memory, of threads (`EAGAIN`), or of the kernel's
    /// `max_user_watches`. What was created before the call that failed is closed again.
    ///
    /// Not fork-safe: a child process that forks gets neither the loop thread nor a usable multi
    /// handle, so it must `exec` before it sends a request (as `Process` and swift-subprocess do).
    ///
    /// `connectionsPerLoop` bounds the loop's connections (``CurlTransport/connectionsPerLoop``).
    init(threadName: String, connectionsPerLoop: Int) throws(TransportSetupFailure) {
        let resources = try Resources.create()
        self.threadName = threadName
        multi = resources.multi
        epoll = resources.epoll
        wakeup = resources.wakeup
        timer = resources.timer

        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = ribcage_curl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, context)
        _ = ribcage_curl_multi_setopt_socket_callback(multi) { _, socket, what, context, _ in
            guard let context else { return 0 }
            Unmanaged<CurlMultiLoop>.fromOpaque(context).takeUnretainedValue().watch(socket, for: what)
            return 0
        }
        _ = ribcage_curl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, context)
        _ = ribcage_curl_multi_setopt_timer_callback(multi) { _, milliseconds, context in
            guard let context else { return 0 }
            Unmanaged<CurlMultiLoop>.fromOpaque(context).takeUnretainedValue().setTimer(milliseconds)
            return 0
        }
        _ = ribcage_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = ribcage_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connectionsPerLoop)
        // The cache's bound. libcurl's own, 4 for each transfer in the multi handle, let a loop
        // keep up to the host limit for every host it spoke to (3 × 16 after bursts to three
        // servers). Curl counts the connections in use too, and closes the oldest idle one when
        // a transfer ends with the cache over the bound.
        _ = ribcage_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, connectionsPerLoop)

        // The thread holds the loop until it ends. Foundation's `Thread.start()` ignores a failed
        // `pthread_create`, which would leave a loop nobody drives and every request on it
        // waiting for ever, so the thread is made here and its failure reported.
        let reference = Unmanaged.passRetained(self)
        let created = Self.startThread(reference.toOpaque())
        guard created == 0 else {
            reference.release()
            curl_multi_cleanup(multi)
            close(timer)
            close(wakeup)
            close(epoll)
            throw TransportSetupFailure(resource: .thread, code: POSIXErrorCode(rawValue: created))
        }
    }

    /// Starts a detached thread that runs the loop given as `loop`, a retained reference it
    /// takes over; returns `pthread_create`'s result.
    private static func startThread(_ loop: UnsafeMutableRawPointer) -> Int32 {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        return pthread_create(
            &thread, &attributes,
            { context in
                guard let context else { return nil }
                let loop = Unmanaged<CurlMultiLoop>.fromOpaque(context).takeRetainedValue()
                // This name (15 bytes kept) is the one ps -L, top and perf show.
                ribcage_set_thread_name(loop.threadName)
                loop.run()
                return nil
            }, loop)
    }

    /// Ends the loop thread once no transfer is left: the transport that owned the loop is gone,
    /// so no transfer will be added. The thread then closes the multi handle, the connections it
    /// keeps and the loop's descriptors.
    func retire() {
        post(.retire)
    }

    /// Starts `transfer`: on the calling thread if the multi handle is free, else on the loop
    /// thread.
    func add(_ transfer: CurlTransfer) {
        inFlight.add(1, ordering: .relaxed)
        let started = multiLock.withLockIfAvailable { _ in
            handle(.add(transfer))
            settle()
            return true
        }
        if started == nil { post(.add(transfer)) }
    }

    /// Hands `command` to the loop thread; once the thread has ended, drops it (a late resume or
    /// cancel for a transfer that ended).
    func post(_ command: Command) {
        // The wakeup is written under the inbox's lock, so that it never meets the eventfd closed
        // by the thread's end (or its number already given to another file).
        inbox.withLock { inbox in
            guard !inbox.ended else { return }
            inbox.commands.append(command)
            if inbox.sleeping {
                inbox.sleeping = false
                _ = eventfd_write(wakeup, 1)
            }
        }
    }

    /// How many transfers were added and have not ended, as a hint for spreading work: it may be
    /// stale by the time the caller acts on it.
    var transfersInFlight: Int { inFlight.load(ordering: .relaxed) }

    /// How many transfers are under way and how many sockets epoll watches for curl; for tests
    /// that check nothing is left behind.
    var load: (transfers: Int, sockets: Int) {
        multiLock.withLock { _ in (active.count, watched.count) }
    }

    /// How many times the loop thread has come back from `epoll_wait`: for tests that check an
    /// idle loop sleeps.
    var wakeups: Int { wakeupCount.load(ordering: .relaxed) }

    /// The loop thread's kernel thread id, 0 before it starts and after it ends: for tests that
    /// check the thread ended.
    var kernelThreadID: Int32 { threadID.load(ordering: .acquiring) }

    /// The CPU time the loop thread has used, from the kernel's scheduler statistics; `nil` before
    /// the thread starts and after it ends.
    var threadCPUTime: Duration? {
        let id = threadID.load(ordering: .acquiring)
        guard id != 0,
            let text = try? String(contentsOfFile: "/proc/self/task/\(id)/schedstat", encoding: .utf8),
            let nanoseconds = text.split(separator: " ").first.flatMap({ Int64($0) })
        else { return nil }
        return .nanoseconds(nanoseconds)
    }

    // MARK: - The loop thread

    private func run() {
        threadID.store(ribcage_gettid(), ordering: .releasing)
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        var ready: Int32 = 0
        while true {
            let commands = inbox.withLock { inbox in
                inbox.sleeping = false
                defer { inbox.commands.removeAll(keepingCapacity: true) }
                return inbox.commands
            }
            let finished = multiLock.withLock { _ in
                for command in commands { handle(command) }
                var running: Int32 = 0
                for event in events[..<Int(max(0, ready))] {
                    switch event.data.fd {
                    case wakeup:
                        var count: eventfd_t = 0
                        _ = eventfd_read(wakeup, &count)
                    case timer:
                        var expirations: UInt64 = 0
                        _ = read(timer, &expirations, MemoryLayout<UInt64>.size)
                        curl_multi_socket_action(multi, ribcage_curl_socket_timeout, 0, &running)
                    case let socket:
                        curl_multi_socket_action(multi, socket, Self.curlEvents(event.events), &running)
                    }
                }
                settle()
                return retired && active.isEmpty
            }
            if finished { break }

            // Sleeps only if no command came in meanwhile; one that comes later wakes it.
            let idle = inbox.withLock { inbox in
                inbox.sleeping = inbox.commands.isEmpty
                return inbox.sleeping
            }
            ready = events.withUnsafeMutableBufferPointer { events in
                epoll_wait(epoll, events.baseAddress, Int32(events.count), idle ? -1 : 0)
            }
            wakeupCount.add(1, ordering: .relaxed)
            if ready < 0 { waitAfterFailedWait(errno: errno) }
        }
        end()
    }

    /// On the loop thread, after its last transfer: closes the multi handle, and with it the
    /// connections it keeps, and the loop's descriptors. Commands posted from now on (a late
    /// resume or cancel for a transfer that ended) are dropped.
    private func end() {
        inbox.withLock { inbox in
            inbox.ended = true
            inbox.commands.removeAll()
        }
        multiLock.withLock { _ in
            curl_multi_cleanup(multi)
            watched.removeAll()
        }
        close(timer)
        close(wakeup)
        close(epoll)
        threadID.store(0, ordering: .releasing)
        closed.signal()
    }

    /// After `epoll_wait` failed: a signal (EINTR) only means waiting again. Any other error
    /// (EBADF, EFAULT, EINVAL) means the epoll set itself is broken, which no retry mends; the
    /// loop then pauses between attempts rather than spin a core at 100%, and runs curl's timers
    /// after each pause, so that every transfer still ends, at the latest with its timeout.
    private func waitAfterFailedWait(errno error: Int32) {
        guard error != EINTR else { return }
        var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
        _ = nanosleep(&pause, nil)
        multiLock.withLock { _ in timerDue = true }
    }

    /// Under `multiLock`: does what `command` asks.
    private func handle(_ command: Command) {
        switch command {
        case .add(let transfer):
            if transfer.cancelRequested.load(ordering: .acquiring) {
                end(transfer, with: .cancelled)
                return
            }
            active[transfer.easy] = transfer
            curl_multi_add_handle(multi, transfer.easy)  // sets a timer due at once, to start it
        case .cancel(let transfer):
            // Not active: not added yet (the add will see the flag) or already finished.
            guard active.removeValue(forKey: transfer.easy) != nil else { return }
            curl_multi_remove_handle(multi, transfer.easy)
            end(transfer, with: .cancelled)
        case .resume(let transfer):
            guard active[transfer.easy] != nil else { return }
            transfer.resumeReceiving()
        case .retire:
            retired = true
        }
    }

    /// Under `multiLock`, before letting go of it: runs curl's timer while it is due at once,
    /// then hands every finished transfer its outcome.
    private func settle() {
        var running: Int32 = 0
        while timerDue {
            timerDue = false
            curl_multi_socket_action(multi, ribcage_curl_socket_timeout, 0, &running)
        }
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let transfer = active.removeValue(forKey: easy)
            else { continue }
            let code = ribcage_curl_message_result(message)
            curl_multi_remove_handle(multi, easy)
            inFlight.subtract(1, ordering: .relaxed)
            transfer.complete(code)
        }
    }

    /// Under `multiLock`: ends a transfer that curl did not finish.
    private func end(_ transfer: CurlTransfer, with error: NetworkError) {
        inFlight.subtract(1, ordering: .relaxed)
        transfer.fail(error)
    }

    // MARK: - Curl's callbacks, under multiLock

    /// Curl's socket callback: watch `socket` for what curl waits for, or forget it.
    private func watch(_ socket: curl_socket_t, for what: Int32) {
        if what == CURL_POLL_REMOVE {
            watched.remove(socket)
            _ = epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil)
            return
        }
        var event = epoll_event()
        event.events =
            (what & CURL_POLL_IN != 0 ? EPOLLIN.rawValue : 0)
            | (what & CURL_POLL_OUT != 0 ? EPOLLOUT.rawValue : 0)
        event.data.fd = socket
        // Should epoll and `watched` ever disagree (a socket closed without a word leaves epoll
        // by itself), the other operation is the right one.
        let (first, second) =
            watched.insert(socket).inserted ? (EPOLL_CTL_ADD, EPOLL_CTL_MOD) : (EPOLL_CTL_MOD, EPOLL_CTL_ADD)
        if epoll_ctl(epoll, first, socket, &event) != 0 {
            _ = epoll_ctl(epoll, second, socket, &event)
        }
    }

    /// Curl's timer callback: call back in `milliseconds`, at once for 0, never for -1.
    private func setTimer(_ milliseconds: Int) {
        // A timer due at once needs no system call; the timerfd, if armed, may go off later for
        // nothing, which costs curl one look at its timers.
        timerDue = milliseconds == 0
        guard milliseconds != 0 else { return }
        var when = itimerspec()  // all zero: disarmed
        if milliseconds > 0 {
            when.it_value.tv_sec = milliseconds / 1_000
            when.it_value.tv_nsec = (milliseconds % 1_000) * 1_000_000
        }
        _ = timerfd_settime(timer, 0, &when, nil)
    }

    /// What an epoll event tells curl. A hang-up or an error is reported as readable and
    /// writable, so that curl's own read or write meets it and names it.
    private static func curlEvents(_ events: UInt32) -> Int32 {
        let failed = events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0
        var mask: Int32 = 0
        if failed || events & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0 { mask |= CURL_CSELECT_IN }
        if failed || events & EPOLLOUT.rawValue != 0 { mask |= CURL_CSELECT_OUT }
        return mask
    }
}
