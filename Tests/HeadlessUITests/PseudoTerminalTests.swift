import Foundation
import HeadlessUI
import HeadlessUITesting
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `headlessui-demo` on a real pseudo-terminal whose other end is a ``VirtualTerminal``: the
/// demo's own session, input thread, decoder, graphics query and frames, against a terminal
/// that speaks kitty's graphics protocol, one that does not, and one that answers nothing.
@Suite("A pseudo-terminal: headlessui-demo asks the terminal about kitty graphics", .serialized)
struct PseudoTerminalTests {
    private static let picture = URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "Images/sunset-64x48.jpg").path

    @Test func aKittyTerminalGetsThePictureThroughTheProtocolAndFreedAtTheEnd() async throws {
        try await DemoOnPseudoTerminal.run(arguments: ["--image", Self.picture], kittyGraphics: true) {
            demo in
            try await demo.waitFor { $0.text.contains("Groceries") }
            demo.send("\u{1B}3")  // Alt-3: the picture tab
            let shown = try await demo.waitFor { !$0.graphics.placements.isEmpty }
            #expect(shown.graphics.transmissions == 1)
            #expect(shown.graphics.errors.isEmpty)
            #expect(!shown.text.contains("▀"))
            #expect(shown.text.contains("sunset-64x48.jpg"))
            demo.send("\u{1B}1")
            try await demo.waitFor { $0.graphics.placements.isEmpty && $0.text.contains("Groceries") }
            demo.send("\u{03}")
            #expect(try await demo.exitStatus() == 0)
            let after = demo.terminal
            #expect(after.graphics.images.isEmpty, "the pixels were freed before the screen was left")
            #expect(!after.isAlternateScreen)
            #expect(after.graphics.transmissions == 1, "switching tabs did not send the picture again")
        }
    }

    @Test(arguments: [true, false])
    func aLiveResizeRedrawsThePictureAtTheNewSizeWithNothingLeftBehind(kittyGraphics: Bool) async throws {
        /// The terminal once the picture tab is drawn: placed, or in half blocks.
        func showingThePicture(_ demo: DemoOnPseudoTerminal, columns: Int) async throws -> VirtualTerminal {
            try await demo.waitFor { terminal in
                terminal.screen.width == columns && terminal.text.contains("sunset-64x48.jpg")
                    && (kittyGraphics ? !terminal.graphics.placements.isEmpty : terminal.text.contains("▀"))
                    && terminal.text.contains(String(repeating: "─", count: columns))
            }
        }
        // What the demo shows when it starts at each size: the reference for the resized one.
        var fresh: [Int: VirtualTerminal] = [:]
        for (columns, rows) in [(UInt16(48), UInt16(14)), (100, 32)] {
            try await DemoOnPseudoTerminal.run(
                arguments: ["--image", Self.picture], kittyGraphics: kittyGraphics, columns: columns,
                rows: rows
            ) { demo in
                try await demo.waitFor { $0.text.contains("Groceries") }
                demo.send("\u{1B}3")
                fresh[Int(columns)] = try await showingThePicture(demo, columns: Int(columns))
                demo.send("\u{03}")
                #expect(try await demo.exitStatus() == 0)
            }
        }
        try await DemoOnPseudoTerminal.run(
            arguments: ["--image", Self.picture], kittyGraphics: kittyGraphics
        ) {
            demo in
            try await demo.waitFor { $0.text.contains("Groceries") }
            demo.send("\u{1B}3")
            let before = try await showingThePicture(demo, columns: 80)
            for (columns, rows) in [(UInt16(48), UInt16(14)), (100, 32)] {
                demo.resize(columns: columns, rows: rows)
                let expected = try #require(fresh[Int(columns)])
                // Every cell, styles included, is what a fresh start at this size shows, and the
                // picture is placed (or drawn) where a fresh start places it: nothing of the
                // picture at the old size is left.
                let after = try await demo.waitFor {
                    $0.screen == expected.screen
                        && $0.graphics.placements.map(\.cells) == expected.graphics.placements.map(\.cells)
                }
                #expect(after.graphics.images.count == (kittyGraphics ? 1 : 0), "the old pixels were freed")
                #expect(
                    after.graphics.images.values.map(\.width) == expected.graphics.images.values.map(\.width),
                    "the pixels were sent again at the size of the new cells")
                #expect(after.graphics.errors.isEmpty)
            }
            if kittyGraphics {
                let cells = { (terminal: VirtualTerminal) in
                    terminal.graphics.placements.first?.cells.width ?? 0
                }
                #expect(
                    cells(fresh[48] ?? before) < cells(before) && cells(before) < cells(fresh[100] ?? before))
            }
            demo.send("\u{03}")
            #expect(try await demo.exitStatus() == 0)
        }
    }

    @Test func aTerminalThatOnlyAnswersTheDeviceAttributesGetsHalfBlocks() async throws {
        try await DemoOnPseudoTerminal.run(arguments: ["--image", Self.picture], kittyGraphics: false) {
            demo in
            try await demo.waitFor { $0.text.contains("Groceries") }
            demo.send("\u{1B}3")
            let shown = try await demo.waitFor { $0.text.contains("▀") }
            #expect(shown.graphics.commands == ["i=31,s=1,v=1,a=q,t=d,f=24"], "the query and nothing else")
            demo.send("\u{03}")
            #expect(try await demo.exitStatus() == 0)
        }
    }

    @Test func aTerminalThatAnswersNothingGetsItsFirstFrameAfterTheTimeoutWithTheKeysTypedMeanwhile()
        async throws
    {
        try await DemoOnPseudoTerminal.run(
            arguments: ["--image", Self.picture], kittyGraphics: true, answers: false
        ) { demo in
            // The query is out, so the session is entered: keys typed now wait for the answer.
            try await demo.waitFor { !$0.graphics.commands.isEmpty }
            demo.send("\u{1B}[B\r")  // Down, Enter
            try await demo.waitFor { $0.text.contains("Oat milk is item 1 of 8") }
            demo.send("\u{1B}\u{1B}3")  // Esc back, then Alt-3
            let shown = try await demo.waitFor { $0.text.contains("▀") }
            #expect(shown.graphics.placements.isEmpty)
            demo.send("\u{03}")
            #expect(try await demo.exitStatus() == 0)
        }
    }
}

/// `headlessui-demo` started on a fresh pseudo-terminal (80×24 cells by default) of 10×20 pixels. A
/// thread of its own reads what the demo writes into a ``VirtualTerminal`` and, with
/// `answers`, writes the terminal's replies back; another waits for the demo's exit. The demo
/// is killed, if it still runs, whatever the test does.
final class DemoOnPseudoTerminal: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private struct State {
        var terminal: VirtualTerminal
        var status: Int32?
        var isClosed = false
    }

    private let master: Int32
    private let pid: pid_t
    private let state: Mutex<State>

    private init(master: Int32, pid: pid_t, terminal: VirtualTerminal) {
        self.master = master
        self.pid = pid
        state = Mutex(State(terminal: terminal))
    }

    static func run(
        arguments: [String], kittyGraphics: Bool, answers: Bool = true, columns: UInt16 = 80,
        rows: UInt16 = 24, _ body: (DemoOnPseudoTerminal) async throws -> Void
    ) async throws {
        let demo = try start(
            arguments: arguments, kittyGraphics: kittyGraphics, answers: answers, columns: columns, rows: rows
        )
        do {
            try await body(demo)
        } catch {
            let screen = demo.terminal.text
            await demo.stop()
            throw Failure(description: "\(error)\nThe terminal showed:\n\(screen)")
        }
        await demo.stop()
    }

    /// What the terminal shows now.
    var terminal: VirtualTerminal { state.withLock { $0.terminal } }

    /// Types `text` at the terminal; nothing once the demo has gone.
    func send(_ text: String) {
        send(bytes: Array(text.utf8))
    }

    private func send(bytes: [UInt8]) {
        state.withLock { state in
            guard !state.isClosed else { return }
            _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        }
    }

    /// Resizes the terminal as a terminal emulator does: the screen keeps the cells that fit,
    /// the pseudo-terminal gets the new size, and the demo gets SIGWINCH (sent here: the kernel
    /// sends it only to the foreground group of someone's controlling terminal, which this
    /// pseudo-terminal is not).
    func resize(columns: UInt16, rows: UInt16) {
        state.withLock { state in
            state.terminal.resize(width: Int(columns), height: Int(rows))
            var size = winsize(
                ws_row: rows, ws_col: columns, ws_xpixel: columns * Self.cellPixels.width,
                ws_ypixel: rows * Self.cellPixels.height)
            _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        }
        kill(pid, SIGWINCH)
    }

    /// Waits until the terminal satisfies `condition`, for at most 10 seconds; returns it then.
    @discardableResult
    func waitFor(
        _ condition: (VirtualTerminal) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> VirtualTerminal {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let now = terminal
            if condition(now) { return now }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "the terminal never showed what was awaited (\(sourceLocation))")
    }

    /// The demo's exit status, once it has exited (at most 10 seconds).
    func exitStatus() async throws -> Int32 {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if let status = state.withLock({ $0.status }) { return status }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "headlessui-demo did not exit")
    }

    private func stop() async {
        if state.withLock({ $0.status }) == nil { kill(pid, SIGKILL) }
        _ = try? await exitStatus()
    }

    private static let cellPixels: (width: UInt16, height: UInt16) = (10, 20)

    private static func start(
        arguments: [String], kittyGraphics: Bool, answers: Bool, columns: UInt16, rows: UInt16
    ) throws -> DemoOnPseudoTerminal {
        // Cells of 10×20 pixels. This side keeps the demo's end open until the demo has exited,
        // so that reading never fails before the demo opens it, and fails (EIO) once it has gone.
        let terminal = try PseudoTerminalPair.open(columns: columns, rows: rows, cellPixels: cellPixels)
        let master = terminal.master
        let slave = terminal.slave
        let demo: String
        do {
            demo = try Tmux.demoPath()
        } catch {
            close(master)
            close(slave)
            throw error
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] { posix_spawn_file_actions_adddup2(&actions, slave, descriptor) }
        posix_spawn_file_actions_addclose(&actions, slave)
        posix_spawn_file_actions_addclose(&actions, master)
        // A process group of its own, as a shell starts a program. (POSIX_SPAWN_SETSID is not in
        // Swift's Glibc module.)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        startAsFromAShell(&attributes, flags: Int32(POSIX_SPAWN_SETPGROUP))
        let command = [demo] + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let environment = ["TERM=xterm-256color", "LANG=C.UTF-8", "PATH=/usr/bin:/bin"]
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for variable in envp { free(variable) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, demo, &actions, &attributes, &argv, &envp)
        guard spawned == 0 else {
            close(master)
            close(slave)
            throw Failure(description: "headlessui-demo cannot start: \(String(cString: strerror(spawned)))")
        }
        let session = DemoOnPseudoTerminal(
            master: master, pid: pid,
            terminal: VirtualTerminal(width: Int(columns), height: Int(rows), kittyGraphics: kittyGraphics))
        Thread { session.readUntilClosed(answering: answers) }.start()
        Thread {
            var status: Int32 = 0
            while waitpid(session.pid, &status, 0) < 0, errno == EINTR {}
            // WIFEXITED and WEXITSTATUS, which Swift does not import.
            let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            session.state.withLock { $0.status = code }
            close(slave)
        }.start()
        return session
    }

    /// Reads the demo's output until its side of the terminal closes (read fails with EIO once
    /// the demo has exited), then closes the master side.
    private func readUntilClosed(answering: Bool) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            let replies = state.withLock { state -> [UInt8] in
                state.terminal.apply(Array(buffer[0..<count]))
                return state.terminal.takeReplies()
            }
            if answering, !replies.isEmpty { send(bytes: replies) }
        }
        state.withLock { state in
            state.isClosed = true
            close(master)
        }
    }
}
