import Foundation
import HeadlessUITesting
import TerminalRuntime
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a terminal program does when it cannot catch signals: `headlessui-demo` on a
/// pseudo-terminal of its own, out of file descriptors before it runs, so that the signal pipe
/// (`SignalEvents`) cannot be made. Without that pipe, SIGINT, SIGTERM or SIGHUP would end the
/// program with the terminal still raw, so the session is never entered.
@Suite("SignalEvents: a process out of descriptors")
struct SignalEventsTests {
    @Test func noSignalPipeIsReportedAndTheTerminalIsLeftAsItWas() async throws {
        let demo = try PseudoTerminalSession(
            [try HeadlessUIDemo.path(), "--use-up-descriptors"],
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"],
            columns: 160)
        defer { demo.close() }
        #expect(try await demo.exitStatus() == 1)
        let terminal = demo.terminal
        #expect(
            terminal.text.contains(
                "headlessui-demo: signals cannot be caught, so the terminal could not be given back on a signal: "
                    + "Too many open files"),
            "\(terminal.text)")
        #expect(!terminal.text.contains("Groceries"), "no frame was drawn")
        #expect(!terminal.isAlternateScreen && terminal.isCursorVisible)
        #expect(terminal.modes.isDisjoint(with: [1049, 1000, 1002, 1006, 2004]), "modes: \(terminal.modes)")
        #expect(demo.settingsAtExitAreAsBefore && demo.wasCookedAtExit)
    }
}
