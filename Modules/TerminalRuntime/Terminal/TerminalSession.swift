import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A full-screen session on a terminal: raw mode, the alternate screen, a hidden cursor,
/// bracketed paste and mouse reports, entered and left in one place.
///
/// ```swift
/// let session = TerminalSession()
/// try session.enter()
/// defer { session.leave() }
/// ```
///
/// ``leave()`` restores the terminal exactly as ``enter()`` found it (its termios settings,
/// the main screen, the cursor), and does nothing when the session is not entered, so every exit
/// path may call it. A process that ends with `exit()` while a session is entered has it left
/// by an `atexit` handler, and one that crashes (a trap, a bad pointer, `abort()`) has the
/// terminal given back before the crash report is printed; ``TerminalApplication`` leaves it on
/// SIGINT, SIGTERM and SIGHUP, and around SIGTSTP and SIGCONT.
///
/// Raw mode here is `cfmakeraw` with output processing kept, so that a stray `print` still
/// starts its lines at the left edge. Ctrl-C, Ctrl-Z and Ctrl-\ arrive as keys, not signals:
/// the application decides what they do.
public final class TerminalSession: Sendable {
    /// The modes a session turns on besides raw mode and the alternate screen.
    public struct Options: Sendable, Hashable {
        /// Report mouse presses, drags and the wheel in SGR form (modes 1000, 1002, 1006).
        public var reportsMouse: Bool
        /// Mark pasted text (mode 2004), so that a paste is never taken for typed keys.
        public var bracketedPaste: Bool

        /// Both on by default.
        public init(reportsMouse: Bool = true, bracketedPaste: Bool = true) {
            self.reportsMouse = reportsMouse
            self.bracketedPaste = bracketedPaste
        }
    }

    /// The terminal's input.
    public let inputDescriptor: Int32
    /// The terminal's output.
    public let outputDescriptor: Int32
    /// The modes turned on.
    public let options: Options
    private let saved = Mutex<termios?>(nil)

    /// A session on `input` and `output` (standard input and output by default).
    public init(
        input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, options: Options = Options()
    ) {
        inputDescriptor = input
        outputDescriptor = output
        self.options = options
    }

    /// Whether the session is entered.
    public var isActive: Bool { saved.withLock { $0 != nil } }

    /// Saves the terminal's settings, switches it to raw mode and the alternate screen, and
    /// turns on the options' modes. Entering an entered session re-applies raw mode and the
    /// modes, as after a job-control resume, and keeps the settings first saved. A process that
    /// is a background job of its terminal is stopped (SIGTTOU) until it is in the foreground,
    /// so it never takes the screen from its shell.
    ///
    /// - Throws: ``TerminalError/notATerminal`` when the input is not a terminal, or
    ///   ``TerminalError/settings(_:)`` when its settings cannot be read or changed.
    public func enter() throws(TerminalError) {
        guard isatty(inputDescriptor) == 1 else { throw .notATerminal }
        var original = termios()
        if let kept = saved.withLock({ $0 }) {
            original = kept
        } else if tcgetattr(inputDescriptor, &original) != 0 {
            throw .settings(String(cString: strerror(errno)))
        }
        var raw = original
        cfmakeraw(&raw)
        raw.c_oflag |= tcflag_t(OPOST)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        // A background job (started with `&`, or continued by `kill -CONT` while its shell keeps
        // the terminal) is stopped here by the terminal driver until `fg`, before it writes
        // anything; that needs SIGTTOU unblocked on this thread (JobControl says why).
        let applied = JobControl.unblocking(SIGTTOU) { tcsetattr(inputDescriptor, TCSAFLUSH, &raw) }
        guard applied == 0 else {
            throw .settings(String(cString: strerror(errno)))
        }
        saved.withLock { $0 = original }
        TerminalSession.register(self)
        CrashRestore.arm(
            input: inputDescriptor, output: outputDescriptor, settings: original, leaveSequence: leaveSequence
        )
        write(enterSequence)
    }

    /// Leaves the alternate screen and raw mode, restoring what ``enter()`` found. Does
    /// nothing when the session is not entered.
    public func leave() {
        guard
            let original = saved.withLock({ state -> termios? in
                defer { state = nil }
                return state
            })
        else { return }
        CrashRestore.disarm()
        write(leaveSequence)
        var settings = original
        _ = tcsetattr(inputDescriptor, TCSADRAIN, &settings)
        TerminalSession.unregister(self)
    }

    /// Writes `bytes` to the terminal, all of them unless it fails (a hung-up terminal).
    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(outputDescriptor, base + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// The modes turned on after raw mode: the alternate screen, a hidden cursor, the options.
    var enterSequence: [UInt8] {
        var text = "\u{1B}[?1049h\u{1B}[?25l"
        if options.bracketedPaste { text += "\u{1B}[?2004h" }
        if options.reportsMouse { text += "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h" }
        return Array((text + "\u{1B}[0m\u{1B}[H\u{1B}[2J").utf8)
    }

    /// The modes turned off, in the reverse order. It starts by ending a synchronized update, in
    /// case it cuts one short (a crash during a frame), which a terminal would otherwise hold
    /// back until its own timeout.
    var leaveSequence: [UInt8] {
        var text = "\u{1B}[?2026l\u{1B}[0m"
        if options.reportsMouse { text += "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l" }
        if options.bracketedPaste { text += "\u{1B}[?2004l" }
        return Array((text + "\u{1B}[?25h\u{1B}[?1049l").utf8)
    }

    // MARK: Leaving at exit

    private static let active = Mutex<[ObjectIdentifier: TerminalSession]>([:])
    private static let atExitInstalled = Mutex(false)

    private static func register(_ session: TerminalSession) {
        active.withLock { $0[ObjectIdentifier(session)] = session }
        atExitInstalled.withLock { installed in
            guard !installed else { return }
            installed = true
            atexit { TerminalSession.leaveAll() }
        }
    }

    private static func unregister(_ session: TerminalSession) {
        _ = active.withLock { $0.removeValue(forKey: ObjectIdentifier(session)) }
    }

    /// Leaves every entered session: what the `atexit` handler does.
    static func leaveAll() {
        let sessions = active.withLock { Array($0.values) }
        for session in sessions { session.leave() }
    }
}

/// Why a terminal session could not start.
public enum TerminalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Standard input is not a terminal (a pipe or a file): there is no screen to take over.
    case notATerminal
    /// The terminal's settings could not be read or changed; the system's reason.
    case settings(String)
    /// Signals cannot be caught (the process is out of file descriptors for ``SignalEvents``'
    /// pipe), so SIGINT, SIGTERM or SIGHUP could not give the terminal back; the system's reason.
    case cannotCatchSignals(String)

    /// What went wrong.
    public var description: String {
        switch self {
        case .notATerminal: "standard input is not a terminal, so a full-screen session cannot start"
        case .settings(let reason): "the terminal's settings could not be changed: \(reason)"
        case .cannotCatchSignals(let reason):
            "signals cannot be caught, so the terminal could not be given back on a signal: \(reason)"
        }
    }
}
