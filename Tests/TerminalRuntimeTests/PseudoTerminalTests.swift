import Foundation
import HeadlessUI
import HeadlessUITesting
import Testing

/// `headlessui-demo` on a real pseudo-terminal whose other end is a ``VirtualTerminal``: the
/// demo's own session, input thread, decoder, graphics query and frames, against a terminal
/// that speaks kitty's graphics protocol, one that does not, and one that answers nothing. Each
/// wait is for the whole frame that the test then reads (``TerminalWait``).
///
/// The demo's wait for the graphics answer is set for each test (`--graphics-timeout`), so that
/// no test depends on how soon a loaded machine reads the terminal's reply: a terminal that
/// answers gets a minute (the answer ends the wait), the one that answers nothing two seconds.
@Suite("A pseudo-terminal: headlessui-demo asks the terminal about kitty graphics", .serialized)
struct PseudoTerminalTests {
    /// Starts the demo showing the test picture on a terminal of cells of 10×20 pixels; the
    /// demo waits `graphicsTimeout` for the answer to its graphics query.
    private func startDemo(
        kittyGraphics: Bool, answers: Bool = true, graphicsTimeout: Duration = .seconds(60),
        columns: UInt16 = 80, rows: UInt16 = 24
    ) throws -> PseudoTerminalSession {
        let milliseconds = graphicsTimeout / .milliseconds(1)
        return try PseudoTerminalSession(
            [
                try HeadlessUIDemo.path(), "--image", HeadlessUIDemo.picture, "--graphics-timeout",
                String(Int(milliseconds)),
            ],
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"],
            columns: columns, rows: rows, cellPixels: (10, 20), kittyGraphics: kittyGraphics,
            answers: answers)
    }

    /// Whether `terminal` shows the whole picture tab `columns` wide: placed on a kitty
    /// terminal, in half blocks on another.
    private func showsThePicture(_ terminal: VirtualTerminal, columns: Int = 80, kittyGraphics: Bool) -> Bool
    {
        terminal.screen.width == columns
            && (kittyGraphics ? !terminal.graphics.placements.isEmpty : terminal.text.contains("▀"))
            && HeadlessUIDemo.pictureIsDrawn(terminal.text, columns: columns, halfBlocks: false)
    }

    @Test func aKittyTerminalGetsThePictureThroughTheProtocolAndFreedAtTheEnd() async throws {
        let demo = try startDemo(kittyGraphics: true)
        defer { demo.close() }
        try await demo.waitFor { HeadlessUIDemo.listIsDrawn($0.text) }
        demo.send("\u{1B}3")  // Alt-3: the picture tab
        let shown = try await demo.waitFor { showsThePicture($0, kittyGraphics: true) }
        #expect(shown.graphics.transmissions == 1)
        #expect(shown.graphics.errors.isEmpty)
        #expect(!shown.text.contains("▀"))
        demo.send("\u{1B}1")
        try await demo.waitFor { $0.graphics.placements.isEmpty && HeadlessUIDemo.listIsDrawn($0.text) }
        demo.send("\u{03}")
        #expect(try await demo.exitStatus() == 0)
        let after = demo.terminal
        #expect(after.graphics.images.isEmpty, "the pixels were freed before the screen was left")
        #expect(!after.isAlternateScreen)
        #expect(after.graphics.transmissions == 1, "switching tabs did not send the picture again")
    }

    @Test(arguments: [true, false])
    func aLiveResizeRedrawsThePictureAtTheNewSizeWithNothingLeftBehind(kittyGraphics: Bool) async throws {
        // What the demo shows when it starts at each size: the reference for the resized one.
        var fresh: [Int: VirtualTerminal] = [:]
        for (columns, rows) in [(UInt16(48), UInt16(14)), (100, 32)] {
            do {
                let demo = try startDemo(kittyGraphics: kittyGraphics, columns: columns, rows: rows)
                defer { demo.close() }
                try await demo.waitFor { $0.text.contains("3 Picture") }
                demo.send("\u{1B}3")
                fresh[Int(columns)] = try await demo.waitFor {
                    showsThePicture($0, columns: Int(columns), kittyGraphics: kittyGraphics)
                }
                demo.send("\u{03}")
                #expect(try await demo.exitStatus() == 0)
            }
        }
        let demo = try startDemo(kittyGraphics: kittyGraphics)
        defer { demo.close() }
        try await demo.waitFor { HeadlessUIDemo.listIsDrawn($0.text) }
        demo.send("\u{1B}3")
        let before = try await demo.waitFor { showsThePicture($0, kittyGraphics: kittyGraphics) }
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

    @Test func aTerminalThatOnlyAnswersTheDeviceAttributesGetsHalfBlocks() async throws {
        let demo = try startDemo(kittyGraphics: false)
        defer { demo.close() }
        try await demo.waitFor { HeadlessUIDemo.listIsDrawn($0.text) }
        demo.send("\u{1B}3")
        try await demo.waitFor { showsThePicture($0, kittyGraphics: false) }
        demo.send("\u{03}")
        #expect(try await demo.exitStatus() == 0)
        #expect(
            demo.terminal.graphics.commands == ["i=31,s=1,v=1,a=q,t=d,f=24"], "the query and nothing else"
        )
    }

    @Test func aTerminalThatAnswersNothingGetsItsFirstFrameAfterTheTimeoutWithTheKeysTypedMeanwhile()
        async throws
    {
        // Two seconds: keys typed as soon as the query is out are read long before the time is
        // up, even on a loaded machine.
        // 120 columns, so that the answer printed at the end fits on its line.
        let demo = try startDemo(
            kittyGraphics: true, answers: false, graphicsTimeout: .seconds(2), columns: 120)
        defer { demo.close() }
        // The query is out, so the session is entered: keys typed now wait for the answer.
        try await demo.waitFor { !$0.graphics.commands.isEmpty }
        demo.send("\u{1B}[B\r")  // Down, Enter
        try await demo.waitFor { $0.text.contains("Oat milk is item 1 of 8") }
        let first = try #require(demo.firstFrame)
        #expect(HeadlessUIDemo.listIsDrawn(first.text), "\(first.text)")
        #expect(
            !first.text.contains("Oat milk is item 1 of 8"), "the keys were handled after the first frame")
        demo.send("\u{1B}\u{1B}3")  // Esc back, then Alt-3
        let shown = try await demo.waitFor { showsThePicture($0, columns: 120, kittyGraphics: false) }
        #expect(shown.graphics.placements.isEmpty)
        demo.send("\u{03}")
        #expect(try await demo.exitStatus() == 0)
        #expect(demo.terminal.graphics.transmissions == 0, "no picture was ever sent")
        // Printed once the screen is the shell's again.
        #expect(
            demo.terminal.text.contains("the terminal answered no query within 2.0 seconds"),
            "\(demo.terminal.text)")
    }
}
