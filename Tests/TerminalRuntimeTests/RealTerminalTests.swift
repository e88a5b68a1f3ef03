import Foundation
import HeadlessUITesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The runtime in a real terminal: `headlessui-demo` (built next to this test bundle) runs in a
/// tmux pane on a tmux server of its own, which is killed whatever happens. Each test sends keys,
/// resizes, signals, and reads the pane's text and whether the alternate screen is on; the pane's
/// shell compares the terminal's settings before and after the app (`stty -g`). Each wait is for
/// the whole frame that the test then reads (``TerminalWait``).
@Suite("A real terminal: headlessui-demo under tmux", .serialized)
struct RealTerminalTests {
    @Test func keysResizeAndCtrlCLeaveTheTerminalAsItWas() async throws {
        let tmux = Tmux()
        defer { tmux.close() }
        try await tmux.startDemo()
        try await tmux.waitFor(HeadlessUIDemo.listIsDrawn)
        #expect(try await tmux.alternateScreen)
        try await tmux.send("Down", "Enter")
        try await tmux.waitFor { $0.contains("Oat milk is item 1 of 8") }
        try await tmux.send("Escape")
        try await tmux.waitFor { $0.contains("2. Eggs") && HeadlessUIDemo.listIsDrawn($0) }
        try await tmux.resize(columns: 40, rows: 12)
        let small = try await tmux.waitFor { screen in
            let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return rows.count >= 12 && rows.contains { $0 == String(repeating: "─", count: 40) }
                && screen.contains("[1 Groceries]")
        }
        #expect(small.split(separator: "\n").allSatisfy { $0.count <= 40 })
        try await tmux.resize(columns: 100, rows: 30)
        try await tmux.waitFor {
            $0.contains(String(repeating: "─", count: 100)) && HeadlessUIDemo.listIsDrawn($0)
        }
        try await tmux.send("C-c")
        let exit = try await tmux.waitForExit()
        #expect(exit.status == 0)
        #expect(exit.settingsRestored)
        #expect(try await !tmux.alternateScreen)
    }

    @Test(arguments: [("TERM", SIGTERM), ("HUP", SIGHUP), ("INT", SIGINT)])
    func aSignalEndsTheAppAndTheTerminalIsRestored(name: String, number: Int32) async throws {
        let tmux = Tmux()
        defer { tmux.close() }
        try await tmux.startDemo()
        // Right after the first frame: the signals are caught before the session is entered.
        try await tmux.waitFor(HeadlessUIDemo.listIsDrawn)
        let pid = try tmux.demoPID()
        #expect(kill(pid, number) == 0)
        let exit = try await tmux.waitForExit()
        #expect(exit.status == 128 + number, "SIG\(name)")
        #expect(exit.settingsRestored, "SIG\(name)")
        #expect(try await !tmux.alternateScreen, "SIG\(name)")
    }

    @Test func ctrlZLeavesTheScreenAndFgRedrawsIt() async throws {
        let tmux = Tmux()
        defer { tmux.close() }
        try await tmux.startDemoInAnInteractiveShell()
        try await tmux.waitFor(HeadlessUIDemo.listIsDrawn)
        try await tmux.send("C-z")
        try await tmux.waitFor { $0.contains("Stopped") }
        #expect(try await !tmux.alternateScreen)
        try await tmux.expectCookedMode()
        try await tmux.send(literal: "fg")
        try await tmux.send("Enter")
        try await tmux.waitFor {
            $0.contains("1. Oat milk") && !$0.contains("Stopped") && HeadlessUIDemo.listIsDrawn($0)
        }
        #expect(try await tmux.alternateScreen)
        try await tmux.send("C-c")
        try await tmux.waitFor { $0.contains("ended (quit)") }
    }

    @Test func killTSTPThenCONTInTheBackgroundStaysOffTheScreenUntilFg() async throws {
        let tmux = Tmux()
        defer { tmux.close() }
        try await tmux.startDemoInAnInteractiveShell()
        try await tmux.waitFor(HeadlessUIDemo.listIsDrawn)
        let pid = try tmux.demoPID()
        for round in 1...2 {
            #expect(kill(pid, SIGTSTP) == 0)
            let left = try await TerminalWait.poll(every: .milliseconds(20)) {
                try await !tmux.alternateScreen && HeadlessUIDemo.isStopped(pid) ? true : nil
            }
            #expect(left == true, "round \(round): stopped, the screen left")
            // The shell keeps the terminal: continued, the demo is a background job, which the
            // terminal driver stops again before it can take the screen from the shell.
            #expect(kill(pid, SIGCONT) == 0)
            try await tmux.send(literal: "clear; jobs")
            try await tmux.send("Enter")
            try await tmux.waitFor { $0.contains("Stopped (tty output)") }
            #expect(try await !tmux.alternateScreen, "round \(round)")
            #expect(HeadlessUIDemo.isStopped(pid), "round \(round)")
            try await tmux.expectCookedMode()
            try await tmux.send(literal: "fg")
            try await tmux.send("Enter")
            try await tmux.waitFor { !$0.contains("Stopped") && HeadlessUIDemo.listIsDrawn($0) }
            #expect(try await tmux.alternateScreen, "round \(round)")
        }
        try await tmux.send("Down", "Enter")
        try await tmux.waitFor { $0.contains("Oat milk is item 1 of 8") }
        try await tmux.send("C-c")
        try await tmux.waitFor { $0.contains("ended (quit)") }
    }

    @Test func startedInTheBackgroundItWaitsForFgBeforeTakingTheScreen() async throws {
        let tmux = Tmux()
        defer { tmux.close() }
        try await tmux.startDemoInAnInteractiveShell(inTheBackground: true)
        let stopped = try await TerminalWait.poll(every: .milliseconds(20)) {
            (try? tmux.demoPID()).map(HeadlessUIDemo.isStopped) == true ? true : nil
        }
        #expect(stopped == true, "the demo, a background job, is stopped when it asks for the terminal")
        try await tmux.send(literal: "jobs")
        try await tmux.send("Enter")
        try await tmux.waitFor { $0.contains("Stopped (tty output)") }
        #expect(try await !tmux.alternateScreen)
        try await tmux.expectCookedMode()
        try await tmux.send(literal: "fg")
        try await tmux.send("Enter")
        try await tmux.waitFor(HeadlessUIDemo.listIsDrawn)
        #expect(try await tmux.alternateScreen)
        try await tmux.send("C-c")
        try await tmux.waitFor { $0.contains("ended (quit)") }
    }

    @Test func aPictureShowsAsColouredHalfBlocksAndNoGraphicsCommandReachesTmux() async throws {
        let tmux = Tmux()
        defer { tmux.close() }
        try await tmux.startDemo(arguments: ["--image", HeadlessUIDemo.picture])
        try await tmux.waitFor(HeadlessUIDemo.listIsDrawn)
        try await tmux.send("M-3")
        // The frame reaches tmux in more than one read when the machine is busy: wait for its
        // last rows (the caption and the tab bar), not for the first half-block.
        try await tmux.waitFor { HeadlessUIDemo.pictureIsDrawn($0) }
        let styled = try await tmux.styledCapture()
        #expect(styled.contains("38;5;") && styled.contains("48;5;"))
        // tmux takes an APC string for the pane's title and shows it in its status line:
        // inside tmux the demo must not write kitty's graphics query, nor any picture.
        #expect(!styled.contains("Gi=") && !styled.contains("_G"))
        let title = try await tmux.title()
        #expect(!title.contains("Gi="), "the pane's title is \(title)")
        try await tmux.send("C-c")
        let exit = try await tmux.waitForExit()
        // The fallback says why: the app can tell its user that tmux is the reason.
        #expect(exit.screen.contains("unsupported(\"not asked: inside tmux"), "\(exit.screen)")
    }

    @Test func aLiveResizeRedrawsThePictureAtTheNewSizeWithNoStaleCells() async throws {
        /// The pane with its colours, once the whole picture tab is drawn.
        func pictureScreen(_ tmux: Tmux, columns: Int) async throws -> String {
            try await tmux.waitFor { HeadlessUIDemo.pictureIsDrawn($0, columns: columns) }
            return try await tmux.styledCapture()
        }
        // What the demo draws when it starts at each size: the reference for the resized pane.
        var fresh: [Int: String] = [:]
        for (columns, rows) in [(50, 14), (100, 30)] {
            let tmux = Tmux()
            defer { tmux.close() }
            try await tmux.startDemo(
                arguments: ["--image", HeadlessUIDemo.picture], columns: columns, rows: rows)
            try await tmux.waitFor { $0.contains("3 Picture") }
            try await tmux.send("M-3")
            fresh[columns] = try await pictureScreen(tmux, columns: columns)
            try await tmux.send("C-c")
            #expect(try await tmux.waitForExit().status == 0)
        }
        let tmux = Tmux()
        defer { tmux.close() }
        try await tmux.startDemo(arguments: ["--image", HeadlessUIDemo.picture])
        try await tmux.waitFor(HeadlessUIDemo.listIsDrawn)
        try await tmux.send("M-3")
        let large = try await pictureScreen(tmux, columns: 80)
        for (columns, rows) in [(50, 14), (100, 30)] {
            try await tmux.resize(columns: columns, rows: rows)
            // Every cell, colours included, is what a fresh start at this size draws: the
            // picture is scaled again and nothing of the larger one is left behind.
            let expected = Tmux.cells(ofStyledCapture: fresh[columns] ?? "", columns: columns)
            try await tmux.waitForStyled { Tmux.cells(ofStyledCapture: $0, columns: columns) == expected }
        }
        let blocks = { (screen: String) in screen.split(separator: "\n").filter { $0.contains("▀") }.count
        }
        #expect(blocks(fresh[50] ?? "") < blocks(large) && blocks(large) < blocks(fresh[100] ?? ""))
        try await tmux.send("C-c")
        #expect(try await tmux.waitForExit().status == 0)
    }

    @Test func aCLocaleAndNoColorGetASCIIAndNoColours() async throws {
        let tmux = Tmux()
        defer { tmux.close() }
        try await tmux.startDemo(environment: ["LANG": "C", "LC_ALL": "C", "NO_COLOR": "1"])
        let screen = try await tmux.waitFor(HeadlessUIDemo.listIsDrawn)
        #expect(screen.contains(String(repeating: "-", count: 80)))
        #expect(!screen.contains("─"))
        let styled = try await tmux.styledCapture()
        #expect(!styled.contains("[33m") && !styled.contains("38;5"))
        try await tmux.send("C-c")
        #expect(try await tmux.waitForExit().status == 0)
    }
}
