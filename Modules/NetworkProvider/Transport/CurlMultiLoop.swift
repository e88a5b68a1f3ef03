import CCurl
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A libcurl multi handle driven on a thread of its own, the way libcurl's event-based API is
/// meant to be used: epoll watches the sockets curl asks for, and each wakeup hands curl only
/// the sockets that are ready and the timer that is due (`curl_multi_socket_action`).
///
/// `curl_multi_perform` would instead visit every transfer on every wakeup, each with a
/// `poll` system call of its own to learn whether its socket is ready; with 16 transfers in
/// flight that was most of the loop's time.
///
/// Other threads only post commands; a command wakes the thread (an eventfd write) only when it
/// sleeps in `epoll_wait`, so a busy loop takes commands without a system call per request.
final class CurlMultiLoop: @unchecked Sendable {
    // @unchecked: everything but `inbox` belongs to the loop thread, including the curl
    // callbacks, which curl calls from inside the functions that thread calls. Other threads
    // touch only `inbox`, behind its lock, and write to the eventfd.

    /// What other threads ask of the loop thread, in the order they asked.
    enum Command {
        case add(CurlTransfer)
        case cancel(CurlTransfer)
        case resume(CurlTransfer)
    }

    private struct Inbox {
        var commands: [Command] = []
        /// Whether the loop thread waits in `epoll_wait` and needs waking.
        var sleeping = false
    }

    private let multi: UnsafeMutableRawPointer
    private let epoll: Int32
    private let wakeup: Int32
    private let inbox = Mutex(Inbox())
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// When curl next wants `curl_multi_socket_action(CURL_SOCKET_TIMEOUT)`, on the monotonic
    /// clock in nanoseconds; `nil` when it wants no timer.
    private var timerDeadline: UInt64?

    /// Starts a multi handle and its thread, which run as long as the process.
    ///
    /// Stops the process if curl, epoll or an eventfd cannot be created: that happens only when
    /// the process is out of memory or file descriptors before it has sent a single request.
    init(threadName: String) {
        guard let multi = curl_multi_init() else { fatalError("curl_multi_init failed") }
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { fatalError("epoll_create1 failed: errno \(errno)") }
        let wakeup = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wakeup >= 0 else { fatalError("eventfd failed: errno \(errno)") }
        self.multi = multi
        self.epoll = epoll
        self.wakeup = wakeup

        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = wakeup
        _ = epoll_ctl(epoll, EPOLL_CTL_ADD, wakeup, &event)

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
        _ = ribcage_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 16)

        let thread = Thread { [self] in run() }
        thread.name = threadName
        thread.start()
    }

    /// Hands `command` to the loop thread.
    func post(_ command: Command) {
        let sleeping = inbox.withLock { inbox in
            inbox.commands.append(command)
            defer { inbox.sleeping = false }
            return inbox.sleeping
        }
        if sleeping { _ = eventfd_write(wakeup, 1) }
    }

    // MARK: - The loop thread

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        var running: Int32 = 0
        while true {
            let commands = inbox.withLock { inbox in
                inbox.sleeping = false
                defer { inbox.commands.removeAll(keepingCapacity: true) }
                return inbox.commands
            }
            for command in commands { handle(command) }
            if let deadline = timerDeadline, deadline <= Self.now() {
                timerDeadline = nil
                curl_multi_socket_action(multi, ribcage_curl_socket_timeout, 0, &running)
            }
            finishTransfers()

            // Sleeps only if no command came in meanwhile; one that comes later wakes it.
            let idle = inbox.withLock { inbox in
                inbox.sleeping = inbox.commands.isEmpty
                return inbox.sleeping
            }
            let wait = idle ? millisecondsToTimer() : 0
            let ready = events.withUnsafeMutableBufferPointer { events in
                epoll_wait(epoll, events.baseAddress, Int32(events.count), wait)
            }
            guard ready > 0 else { continue }  // nothing ready, or EINTR
            for event in events[..<Int(ready)] {
                let socket = event.data.fd
                if socket == wakeup {
                    var count: eventfd_t = 0
                    _ = eventfd_read(wakeup, &count)
                } else {
                    curl_multi_socket_action(multi, socket, Self.curlEvents(event.events), &running)
                }
            }
            finishTransfers()
        }
    }

    private func handle(_ command: Command) {
        switch command {
        case .add(let transfer):
            if transfer.cancelRequested.load(ordering: .acquiring) {
                transfer.fail(.cancelled)
                return
            }
            active[transfer.easy] = transfer
            curl_multi_add_handle(multi, transfer.easy)  // sets a timer due at once, to start it
        case .cancel(let transfer):
            // Not active: not added yet (the add will see the flag) or already finished.
            guard active.removeValue(forKey: transfer.easy) != nil else { return }
            curl_multi_remove_handle(multi, transfer.easy)
            transfer.fail(.cancelled)
        case .resume(let transfer):
            guard active[transfer.easy] != nil else { return }
            transfer.resumeReceiving()
        }
    }

    /// Hands every finished transfer its outcome.
    private func finishTransfers() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let transfer = active.removeValue(forKey: easy)
            else { continue }
            let code = ribcage_curl_message_result(message)
            curl_multi_remove_handle(multi, easy)
            transfer.complete(code)
        }
    }

    // MARK: - Curl's callbacks, on the loop thread

    /// Curl's socket callback: watch `socket` for what curl waits for, or forget it.
    private func watch(_ socket: curl_socket_t, for what: Int32) {
        if what == CURL_POLL_REMOVE {
            _ = epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil)
            return
        }
        var event = epoll_event()
        event.events =
            (what & CURL_POLL_IN != 0 ? EPOLLIN.rawValue : 0)
            | (what & CURL_POLL_OUT != 0 ? EPOLLOUT.rawValue : 0)
        event.data.fd = socket
        // A socket curl has not mentioned before is added. A closed socket leaves epoll by
        // itself, so a new socket with a reused number is added as well.
        if epoll_ctl(epoll, EPOLL_CTL_MOD, socket, &event) != 0 {
            _ = epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event)
        }
    }

    /// Curl's timer callback: call back in `milliseconds`, at once for 0, never for -1.
    private func setTimer(_ milliseconds: Int) {
        timerDeadline = milliseconds < 0 ? nil : Self.now() + UInt64(milliseconds) * 1_000_000
    }

    /// How long `epoll_wait` may sleep: until curl's timer is due, or until woken.
    private func millisecondsToTimer() -> Int32 {
        guard let deadline = timerDeadline else { return -1 }
        let now = Self.now()
        guard deadline > now else { return 0 }
        return Int32(clamping: (deadline - now + 999_999) / 1_000_000)  // rounded up: no spinning
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

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
