import Foundation
import HeadlessUITesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// SIGINT, SIGTERM and SIGHUP as early as they can come, many times over: `headlessui-demo` on a
/// pseudo-terminal of its own, signalled the moment it has entered its session, or at a moment
/// of its start-up. However early the signal, the program ends with 128 plus its number and the
/// terminal is as it was: the main screen, the cursor shown, no mouse reports or bracketed
/// paste, and the pseudo-terminal's termios back in cooked mode (`icanon`, `echo`).
@Suite("Signals at start-up: the terminal is always restored", .serialized)
struct SignalAtStartTests {
    private static let signals: [(name: String, number: Int32)] = [
        ("INT", SIGINT), ("TERM", SIGTERM), ("HUP", SIGHUP),
    ]

    /// The modes a session turns on; none may be left on.
    private static let sessionModes: Set<Int> = [1049, 1000, 1002, 1006, 2004]

    private func startDemo(signalOnFirstOutput: Int32? = nil) throws -> PseudoTerminalSession {
        try PseudoTerminalSession(
            [try HeadlessUIDemo.path()],
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"],
            signalOnFirstOutput: signalOnFirstOutput)
    }

    /// Waits for the demo to end, and checks its status and the terminal it left.
    private func expectEndedAndRestored(
        _ demo: PseudoTerminalSession, by signal: (name: String, number: Int32), _ moment: String
    ) async throws {
        let status = try await demo.exitStatus()
        let terminal = demo.terminal
        let what = "SIG\(signal.name) \(moment)"
        #expect(status == 128 + signal.number, "\(what)")
        #expect(!terminal.isAlternateScreen && terminal.isCursorVisible, "\(what)")
        #expect(terminal.modes.isDisjoint(with: Self.sessionModes), "\(what): modes \(terminal.modes)")
        #expect(demo.settingsAtExitAreAsBefore, "\(what)")
        #expect(demo.wasCookedAtExit, "\(what)")
    }

    /// The first bytes the demo writes are its session's: the signal comes as the run loop is
    /// about to start, where a signal whose handler was not in place yet used to be ignored
    /// (and the demo ran on in the alternate screen).
    @Test func aSignalTheMomentTheSessionIsEnteredIsHandled() async throws {
        for round in 1...10 {
            for signal in Self.signals {
                let demo = try startDemo(signalOnFirstOutput: signal.number)
                defer { demo.close() }
                try await expectEndedAndRestored(demo, by: signal, "on the first output, round \(round)")
                // The app handled it, rather than the signal's default action killing it: it
                // left its session and said why it ended.
                #expect(
                    demo.terminal.text.contains("headlessui-demo: ended (signal(\(signal.number)))"),
                    "SIG\(signal.name), round \(round): \(demo.terminal.text)")
            }
        }
    }

    /// Signals at moments spread over the start-up, from before `main` runs to after the first
    /// frame: either the default action ends the demo before it has touched the terminal, or the
    /// demo handles the signal and restores it; never a program left running, never a terminal
    /// left raw.
    @Test func aSignalAtAnyMomentOfTheStartUpLeavesTheTerminalRestored() async throws {
        for step in 0..<45 {
            let signal = Self.signals[step % Self.signals.count]
            let delay = Duration.microseconds(step * 2_000)
            let demo = try startDemo()
            defer { demo.close() }
            try await Task.sleep(for: delay)
            kill(demo.processID, signal.number)
            try await expectEndedAndRestored(demo, by: signal, "\(delay) after the start")
        }
    }
}
