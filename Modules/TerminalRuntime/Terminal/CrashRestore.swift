import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Gives the terminal back when the program crashes while a session is entered: a trap
/// (`fatalError`, a failed force-unwrap, an index out of range), a bad pointer, `abort()`.
///
/// Without it, the crash report is printed into the alternate screen, Swift's backtracer waits
/// there for a key, and the shell is left in raw mode with mouse reports on, where the user can
/// only type `reset` blind. With it, the crash handler first writes the bytes that leave the
/// session and puts the terminal's settings back (`write(2)` and `tcsetattr(3)` are both
/// async-signal-safe; the bytes and settings were prepared when the session was entered), then
/// hands the signal to the action it had before, the backtracer's or the default, so the
/// report appears on the main screen and the process ends by its signal as it would have.
///
/// It restores one session: the one entered last. A program that enters two at once (on two
/// terminals) gets the last one back on a crash. Threads other than the main one have no
/// alternate signal stack, so a stack overflow on one of them cannot run the handler.
enum CrashRestore {
    /// The signals a crash raises.
    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    private static let installed = Mutex(false)

    /// Prepares the restore for an entered session: its descriptors, the settings to put back
    /// and the bytes that leave it. Installs the crash handler the first time.
    static func arm(input: Int32, output: Int32, settings: termios, leaveSequence: [UInt8]) {
        let slot = crashSlot
        slot.isArmed.store(false, ordering: .sequentiallyConsistent)
        slot.settings.pointee = settings
        let count = min(leaveSequence.count, CrashSlot.capacity)
        for index in 0..<count { slot.bytes[index] = leaveSequence[index] }
        slot.byteCount.store(count, ordering: .sequentiallyConsistent)
        slot.input.store(input, ordering: .sequentiallyConsistent)
        slot.output.store(output, ordering: .sequentiallyConsistent)
        installed.withLock { installed in
            guard !installed else { return }
            installed = true
            for number in signals {
                var action = sigaction()
                action.__sigaction_handler.sa_sigaction = crashHandler
                action.sa_flags = SA_SIGINFO | SA_ONSTACK
                sigemptyset(&action.sa_mask)
                sigaction(number, &action, slot.previousActions + Int(number))
            }
        }
        slot.isArmed.store(true, ordering: .sequentiallyConsistent)
    }

    /// The session was left: a crash now has nothing to restore.
    static func disarm() {
        crashSlot.isArmed.store(false, ordering: .sequentiallyConsistent)
    }
}

/// What the crash handler reads: prepared outside it, read inside it without a lock.
private final class CrashSlot: Sendable {
    static let capacity = 256
    let isArmed = Atomic(false)
    let input = Atomic<Int32>(-1)
    let output = Atomic<Int32>(-1)
    let byteCount = Atomic(0)
    // Written only while disarmed, before `isArmed` is set; read by the handler after it
    // takes `isArmed`.
    nonisolated(unsafe) let settings = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    nonisolated(unsafe) let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    /// The actions the crash signals had before, by signal number.
    nonisolated(unsafe) let previousActions: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        actions.initialize(repeating: sigaction(), count: 65)
        return actions
    }()
}

private let crashSlot = CrashSlot()

/// Restores the terminal once, then runs the action the signal had before (Swift's backtracer,
/// which prints its report now that the terminal is back), and then ends the process as the
/// default action does: a fault the kernel raised (a positive `si_code` for a bad access, an
/// invalid instruction such as Swift's trap, a division by zero) happens again when the handler
/// returns; anything else (a breakpoint trap, which would not happen again, `abort()`, `kill`)
/// is raised again. The backtracer returns from a signal sent by `kill`, so without the second
/// raise such a "crash" would leave the program running on a terminal it no longer holds.
private let crashHandler:
    @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = {
        number, info, context in
        let slot = crashSlot
        if slot.isArmed.exchange(false, ordering: .sequentiallyConsistent) {
            _ = write(
                slot.output.load(ordering: .relaxed), slot.bytes, slot.byteCount.load(ordering: .relaxed))
            _ = tcsetattr(slot.input.load(ordering: .relaxed), TCSANOW, slot.settings)
        }
        let previous = slot.previousActions[Int(number)]
        // SIG_DFL is 0 and SIG_IGN 1; anything else is a function.
        let previousHandler = unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self)
        if previousHandler == 1 {
            var ignoring = previous
            sigaction(number, &ignoring, nil)
            return
        }
        if previousHandler > 1 {
            if previous.sa_flags & SA_SIGINFO != 0 {
                previous.__sigaction_handler.sa_sigaction?(number, info, context)
            } else {
                previous.__sigaction_handler.sa_handler?(number)
            }
        }
        var defaultAction = sigaction()
        defaultAction.__sigaction_handler.sa_handler = SIG_DFL
        sigaction(number, &defaultAction, nil)
        // A switch, not an array: a handler must not allocate.
        switch number {
        case SIGSEGV, SIGBUS, SIGILL, SIGFPE:
            if let info, info.pointee.si_code > 0 { return }
        default: break
        }
        raise(number)
    }
