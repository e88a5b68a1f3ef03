import HeadlessUI
import HeadlessUITesting
import Layout
import TerminalRuntime
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `TerminalApplication.run()` when the session cannot be entered once the signals are caught.
/// In ``FirstFrameTests``' serialized suite, the other tests that run an application in this
/// process: `run()` changes the process's signal actions, so a check of them must not overlap
/// another run.
extension FirstFrameTests {
    /// The signals `run()` catches.
    private static let caught: [Int32] = [SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT]

    /// Each signal's handler and flags, as `sigaction` reports them; without SA_RESTORER, which
    /// the C library adds to every action it sets.
    private static func actions() -> [[Int]] {
        caught.map { number in
            var action = sigaction()
            sigaction(number, nil, &action)
            let restorer: Int32 = 0x0400_0000
            return [
                unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self),
                Int(action.sa_flags & ~restorer),
            ]
        }
    }

    @Test func aSessionThatCannotBeEnteredGivesTheSignalsBackBeforeRunThrows() async throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        let before = Self.actions()
        let window = Window(size: Size(width: 20, height: 5))
        let application = TerminalApplication(
            window: window, session: TerminalSession(input: ends[0], output: ends[1]))
        // The signals are caught first, then the session is entered: a pipe is no terminal.
        await #expect(throws: TerminalError.notATerminal) { try await application.run() }
        #expect(Self.actions() == before, "a signal caught by run() was not given back")
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        var byte: UInt8 = 0
        #expect(read(ends[0], &byte, 1) < 0 && errno == EAGAIN, "nothing was written")
    }
}

/// `TerminalApplication.run()` ended by `exit()` while the session is entered.
@Suite("TerminalApplication.run(): exit() while the session is entered")
struct TerminalApplicationRunTests {
    @Test func exitWhileTheSessionIsEnteredLeavesIt() async throws {
        let demo = try PseudoTerminalSession(
            [try HeadlessUIDemo.path(), "--exit-on-usr1"],
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        defer { demo.close() }
        try await demo.waitFor { HeadlessUIDemo.listIsDrawn($0.text) && $0.isAlternateScreen }
        #expect(kill(demo.processID, SIGUSR1) == 0)
        #expect(try await demo.exitStatus() == 3)
        let terminal = demo.terminal
        #expect(!terminal.isAlternateScreen && terminal.isCursorVisible)
        #expect(terminal.modes.isDisjoint(with: [1049, 1000, 1002, 1006, 2004]), "modes: \(terminal.modes)")
        #expect(demo.settingsAtExitAreAsBefore && demo.wasCookedAtExit)
    }
}
