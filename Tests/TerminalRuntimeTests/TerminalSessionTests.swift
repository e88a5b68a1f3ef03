import HeadlessUI
import HeadlessUITesting
import TerminalRuntime
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `TerminalSession` on a real pseudo-terminal: entered, then left on the way out of a function
/// that throws, with the terminal's settings read back from the kernel and what the session wrote
/// replayed on a ``VirtualTerminal``.
@Suite("TerminalSession: entered and left in one place, on a pseudo-terminal")
struct TerminalSessionTests {
    private struct Interrupted: Error {}

    private static func settings(of descriptor: Int32) -> [tcflag_t] {
        var settings = termios()
        tcgetattr(descriptor, &settings)
        return [settings.c_iflag, settings.c_oflag, settings.c_lflag]
    }

    /// Everything written to the other side so far.
    private static func written(to pair: PseudoTerminalPair) -> [UInt8] {
        _ = fcntl(pair.master, F_SETFL, fcntl(pair.master, F_GETFL) | O_NONBLOCK)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(pair.master, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }

    @Test func aThrownErrorLeavesTheSessionAndTheTerminalAsEnterFoundIt() throws {
        let pair = try PseudoTerminalPair.open()
        defer {
            close(pair.master)
            close(pair.slave)
        }
        let before = Self.settings(of: pair.slave)
        let session = TerminalSession(input: pair.slave, output: pair.slave)
        func show() throws {
            try session.enter()
            defer { session.leave() }
            #expect(Self.settings(of: pair.slave)[2] & tcflag_t(ICANON | ECHO) == 0, "raw mode while entered")
            #expect(session.isActive)
            throw Interrupted()
        }
        #expect(throws: Interrupted.self) { try show() }
        #expect(!session.isActive)
        #expect(Self.settings(of: pair.slave) == before)
        var terminal = VirtualTerminal(width: 80, height: 24)
        terminal.apply(Self.written(to: pair))
        #expect(!terminal.isAlternateScreen && terminal.isCursorVisible)
        #expect(
            terminal.modes.isDisjoint(with: [1000, 1002, 1006, 2004]), "modes left on: \(terminal.modes)")
        // Every way out may call it: leaving again writes and changes nothing.
        session.leave()
        #expect(Self.written(to: pair).isEmpty)
        #expect(Self.settings(of: pair.slave) == before)
    }

    @Test func aPipeIsNotATerminalAndNothingIsChanged() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        let session = TerminalSession(input: ends[0], output: ends[1])
        #expect(throws: TerminalError.notATerminal) { try session.enter() }
        #expect(!session.isActive)
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        var byte: UInt8 = 0
        #expect(read(ends[0], &byte, 1) < 0 && errno == EAGAIN, "nothing was written")
    }
}
