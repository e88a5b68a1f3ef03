import Foundation
import HeadlessUITesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `headlessui-demo` crashing on a pseudo-terminal: the signals a crash raises (a bad pointer,
/// Swift's trap, `abort()`, …) sent to it while its session is entered. The process still dies
/// by its signal, but the terminal is given back first: the main screen, the cursor, no mouse
/// reports, and cooked mode; and Swift's crash report is printed where the user can read it.
@Suite("A crash gives the terminal back", .serialized)
struct CrashRestoreTests {
    private static let crashSignals: [(name: String, number: Int32)] = [
        ("SEGV", SIGSEGV), ("BUS", SIGBUS), ("ILL", SIGILL), ("TRAP", SIGTRAP), ("ABRT", SIGABRT),
        ("FPE", SIGFPE),
    ]

    private func startDemo(backtrace: Bool) throws -> PseudoTerminalSession {
        var environment = ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        if !backtrace { environment["SWIFT_BACKTRACE"] = "enable=no" }
        return try PseudoTerminalSession([try HeadlessUIDemo.path()], environment: environment)
    }

    private func expectRestored(_ demo: PseudoTerminalSession, _ what: String) {
        let terminal = demo.terminal
        #expect(!terminal.isAlternateScreen && terminal.isCursorVisible, "\(what)")
        #expect(terminal.modes.isDisjoint(with: [1000, 1002, 1006, 2004]), "\(what): \(terminal.modes)")
        #expect(demo.settingsAtExitAreAsBefore && demo.wasCookedAtExit, "\(what)")
    }

    @Test func eachCrashSignalEndsTheDemoByItAndTheTerminalIsRestored() async throws {
        for signal in Self.crashSignals {
            let demo = try startDemo(backtrace: false)
            defer { demo.close() }
            try await demo.waitFor { HeadlessUIDemo.listIsDrawn($0.text) }
            #expect(kill(demo.processID, signal.number) == 0)
            #expect(try await demo.exitStatus() == 128 + signal.number, "SIG\(signal.name)")
            expectRestored(demo, "SIG\(signal.name)")
        }
    }

    @Test func swiftsCrashReportIsPrintedOnTheMainScreenInCookedMode() async throws {
        let demo = try startDemo(backtrace: true)
        defer { demo.close() }
        try await demo.waitFor { HeadlessUIDemo.listIsDrawn($0.text) }
        #expect(kill(demo.processID, SIGSEGV) == 0)
        // The backtracer prints its report, then waits for a key: on the main screen, with the
        // frame gone, not inside the app's alternate screen.
        let report = try await demo.waitFor {
            $0.text.contains("Program crashed") && $0.text.contains("Press")
        }
        #expect(!report.isAlternateScreen)
        #expect(!report.text.contains("[1 Groceries]"), "\(report.text)")
        demo.send("q")
        // The backtracer returns from a SIGSEGV sent by kill; the demo still ends by it.
        #expect(try await demo.exitStatus() == 128 + SIGSEGV)
        expectRestored(demo, "after the crash report")
    }
}
