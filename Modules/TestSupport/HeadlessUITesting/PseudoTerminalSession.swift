import Foundation
import Synchronization
import TerminalRuntime
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A program on a pseudo-terminal of its own whose other end is a ``VirtualTerminal``: keys go
/// in as the bytes a terminal sends, and a thread of its own replays what the program writes (and,
/// with `answers`, writes the terminal's replies back), so a test reads the screen, the modes and
/// the pictures as the program left them.
///
/// ```swift
/// let app = try PseudoTerminalSession([demo], environment: ["TERM": "xterm-256color"])
/// defer { app.close() }
/// try await app.waitFor { $0.text.contains("Groceries") && $0.text.contains("[1 Groceries]") }
/// app.send("\u{03}")  // Ctrl-C
/// #expect(try await app.exitStatus() == 0)
/// #expect(!app.terminal.isAlternateScreen)  // read after everything the app wrote
/// ```
///
/// With `RIBCAGE_SLOW_TERMINAL=1` in the environment, every read of more than 256 bytes reaches
/// the terminal in 8 parts 30 ms apart, as a frame reaches a terminal on a busy machine: a test
/// that waits for a first marker and asserts the rest of the frame fails under it.
package final class PseudoTerminalSession: Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    private struct State {
        var terminal: VirtualTerminal
        var status: Int32?
        /// The terminal side's settings when the program exited.
        var settingsAtExit: [tcflag_t]?
        /// Whether the reader has seen the terminal side close: everything the program wrote
        /// has been replayed, and the controlling side is closed.
        var isDrained = false
        /// The screen once the first synchronized update closed.
        var firstFrame: VirtualTerminal?
        /// How much of ``PseudoTerminalSession/endOfSynchronizedUpdate`` the last bytes read
        /// ended with, for a sequence split between two reads.
        var endMatched = 0

        /// Replays `bytes`; keeps the screen as it is at the end of the first synchronized update.
        mutating func apply(_ bytes: [UInt8]) {
            guard firstFrame == nil else { return terminal.apply(bytes) }
            let end = PseudoTerminalSession.endOfSynchronizedUpdate
            for (index, byte) in bytes.enumerated() {
                endMatched = byte == end[endMatched] ? endMatched + 1 : (byte == end[0] ? 1 : 0)
                if endMatched == end.count {
                    terminal.apply(Array(bytes[...index]))
                    firstFrame = terminal
                    return terminal.apply(Array(bytes[(index + 1)...]))
                }
            }
            terminal.apply(bytes)
        }
    }

    /// What a full-screen program writes when a frame is complete (``TerminalApplication`` wraps
    /// each frame in a synchronized update, so that the terminal shows it whole).
    fileprivate static let endOfSynchronizedUpdate = Array("\u{1B}[?2026l".utf8)

    private let master: Int32
    private let pid: pid_t
    private let cellPixels: (width: UInt16, height: UInt16)
    private let settingsBefore: [tcflag_t]
    private let state: Mutex<State>

    /// Starts `arguments` (a path, then its arguments) with exactly `environment` on a fresh
    /// pseudo-terminal of `columns` by `rows` cells of `cellPixels`, in a process group of its
    /// own as a shell starts it. ``close()`` it when the test ends (`defer`).
    ///
    /// - Parameters:
    ///   - kittyGraphics: Whether the terminal speaks kitty's graphics protocol.
    ///   - answers: Whether the terminal's replies (to device attributes, to a graphics query)
    ///     go back to the program; `false` is a terminal that answers nothing.
    ///   - signalOnFirstOutput: A signal sent to the program by the reading thread the moment
    ///     the first bytes it writes are read (for a full-screen program, the moment it has
    ///     entered its session), before they are replayed.
    package init(
        _ arguments: [String], environment: [String: String], columns: UInt16 = 80, rows: UInt16 = 24,
        cellPixels: (width: UInt16, height: UInt16) = (0, 0), kittyGraphics: Bool = false,
        answers: Bool = true, signalOnFirstOutput: Int32? = nil
    ) throws {
        let pair = try PseudoTerminalPair.open(columns: columns, rows: rows, cellPixels: cellPixels)
        settingsBefore = Self.settings(of: pair.slave)
        do {
            pid = try ChildProcess.spawn(arguments, environment: environment, ownProcessGroup: true) {
                actions in
                for descriptor: Int32 in [0, 1, 2] {
                    posix_spawn_file_actions_adddup2(&actions, pair.slave, descriptor)
                }
            }
        } catch {
            Glibc.close(pair.master)
            Glibc.close(pair.slave)
            throw error
        }
        master = pair.master
        self.cellPixels = cellPixels
        state = Mutex(
            State(
                terminal: VirtualTerminal(
                    width: Int(columns), height: Int(rows), kittyGraphics: kittyGraphics)))
        let slowly = ProcessInfo.processInfo.environment["RIBCAGE_SLOW_TERMINAL"] == "1"
        Thread { [self] in
            readUntilClosed(answering: answers, slowly: slowly, signalOnFirstOutput: signalOnFirstOutput)
        }.start()
        // This side keeps the program's end open until the program has exited, so that reading
        // never fails before the program opens it, and fails (EIO) once everything it wrote has
        // been read.
        Thread { [self] in
            let status = ChildProcess.wait(for: pid)
            state.withLock { state in
                state.status = status
                state.settingsAtExit = Self.settings(of: pair.slave)
            }
            Glibc.close(pair.slave)
        }.start()
    }

    /// What the terminal shows now.
    package var terminal: VirtualTerminal { state.withLock { $0.terminal } }

    /// What the terminal showed when the program's first synchronized update closed: the first
    /// whole frame of a program that draws in synchronized updates, as ``TerminalApplication``
    /// does; `nil` until then. For a test of what a user sees first, not a moment later.
    package var firstFrame: VirtualTerminal? { state.withLock { $0.firstFrame } }

    /// Whether the terminal's settings (its input, output and local flags: raw mode, echo) were,
    /// when the program exited, what they were before it started; `false` while it runs.
    package var settingsAtExitAreAsBefore: Bool { state.withLock { $0.settingsAtExit } == settingsBefore }

    /// Whether the terminal was in cooked mode when the program exited: lines edited by the
    /// terminal (`icanon`) and echoed (`echo`), as `stty -a` shows a shell's terminal; `false`
    /// while it runs.
    package var wasCookedAtExit: Bool {
        guard let local = state.withLock({ $0.settingsAtExit })?[2] else { return false }
        let cooked = tcflag_t(ICANON | ECHO)
        return local & cooked == cooked
    }

    /// The program's pid.
    package var processID: pid_t { pid }

    /// Whether the program has ended (its status is known), without waiting for it.
    package var hasExited: Bool { state.withLock { $0.status != nil } }

    /// Types `text` at the terminal; nothing once the program has gone.
    package func send(_ text: String) {
        send(bytes: Array(text.utf8))
    }

    private func send(bytes: [UInt8]) {
        state.withLock { state in
            guard !state.isDrained else { return }
            _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        }
    }

    /// Resizes the terminal as a terminal emulator does: the screen keeps the cells that fit,
    /// the pseudo-terminal gets the new size, and the program gets SIGWINCH (sent here: the
    /// kernel sends it only to the foreground group of someone's controlling terminal, which
    /// this pseudo-terminal is not).
    package func resize(columns: UInt16, rows: UInt16) {
        state.withLock { state in
            guard !state.isDrained else { return }
            state.terminal.resize(width: Int(columns), height: Int(rows))
            var size = winsize(
                ws_row: rows, ws_col: columns, ws_xpixel: columns * cellPixels.width,
                ws_ypixel: rows * cellPixels.height)
            _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        }
        kill(pid, SIGWINCH)
    }

    /// Waits until the terminal satisfies `condition`, for at most ``TerminalWait/timeout``.
    ///
    /// - Returns: The terminal that satisfied it.
    @discardableResult
    package func waitFor(
        _ condition: (VirtualTerminal) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> VirtualTerminal {
        let shown = try await TerminalWait.poll(every: .milliseconds(20)) { () -> VirtualTerminal? in
            let now = terminal
            return condition(now) ? now : nil
        }
        guard let shown else {
            throw Failure(
                description: "the terminal never showed what was awaited (\(sourceLocation)); it showed:\n"
                    + terminal.text)
        }
        return shown
    }

    /// The program's exit status, once it has exited and everything it wrote has reached
    /// ``terminal`` (at most ``TerminalWait/timeout``).
    package func exitStatus() async throws -> Int32 {
        let status = try await TerminalWait.poll(every: .milliseconds(20)) {
            state.withLock { $0.isDrained ? $0.status : nil }
        }
        guard let status else {
            throw Failure(description: "\(pid) did not exit; the terminal showed:\n\(terminal.text)")
        }
        return status
    }

    /// Kills the program if it still runs. Its threads close the terminal once it has gone.
    package func close() {
        if state.withLock({ $0.status }) == nil { kill(pid, SIGKILL) }
    }

    /// Reads the program's output until its side of the terminal closes (read fails with EIO
    /// once the program has exited and this side's copy is closed), then closes this side.
    private func readUntilClosed(answering: Bool, slowly: Bool, signalOnFirstOutput: Int32?) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var pendingSignal = signalOnFirstOutput
        while true {
            let count = read(master, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            if let number = pendingSignal {
                kill(pid, number)
                pendingSignal = nil
            }
            let parts = slowly && count > 256 ? 8 : 1
            let partLength = (count + parts - 1) / parts
            for start in stride(from: 0, to: count, by: partLength) {
                if start > 0 { usleep(30_000) }
                let part = Array(buffer[start..<min(start + partLength, count)])
                let replies = state.withLock { state -> [UInt8] in
                    state.apply(part)
                    return state.terminal.takeReplies()
                }
                if answering, !replies.isEmpty { send(bytes: replies) }
            }
        }
        state.withLock { state in
            state.isDrained = true
            Glibc.close(master)
        }
    }

    private static func settings(of descriptor: Int32) -> [tcflag_t] {
        var settings = termios()
        tcgetattr(descriptor, &settings)
        return [settings.c_iflag, settings.c_oflag, settings.c_lflag]
    }
}
