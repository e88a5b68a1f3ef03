import HeadlessUI
import HeadlessUITesting
import TerminalCore
import TerminalRuntime
import Testing

@Suite("FrameWriter: a double buffer that writes only the cells that changed")
struct FrameWriterTests {
    private func canvas(_ rows: [String], width: Int = 20) -> Canvas {
        var window = Canvas(width: width, height: rows.count)
        for (y, row) in rows.enumerated() {
            var x = 0
            for character in row {
                window.replace(x: x, y: y, with: character, style: .plain)
                x += character.terminalWidth
            }
        }
        return window
    }

    @Test func theFirstFrameClearsAndWritesEverythingThenOneCellCostsUnder64Bytes() {
        var writer = FrameWriter()
        var terminal = VirtualTerminal(width: 20, height: 3)
        let first = canvas(["Todos", "1. milk", "2. eggs"])
        let full = writer.frame(first)
        #expect(writer.lastFrameWasFull)
        terminal.apply(full)
        #expect(terminal.text == first.text())
        var second = first
        second.replace(x: 0, y: 2, with: "3", style: TextStyle(foreground: .yellow, isBold: true))
        let diff = writer.frame(second)
        #expect(!writer.lastFrameWasFull)
        #expect(diff.count < 64, "\(String(decoding: diff, as: UTF8.self).debugDescription)")
        terminal.apply(diff)
        #expect(terminal.screen == second)
        #expect(writer.frame(second).isEmpty)
    }

    @Test func eachFrameIsSynchronizedOutputWithTheCursorHidden() {
        var writer = FrameWriter()
        let text = String(decoding: writer.frame(canvas(["a"])), as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}[?2026h\u{1B}[?25l"))
        #expect(text.hasSuffix("\u{1B}[?2026l"))
    }

    @Test func theCursorShowsWhereTheCanvasPutsItAndHidesAgain() {
        var writer = FrameWriter()
        var terminal = VirtualTerminal(width: 20, height: 1)
        var frame = canvas(["> buy"])
        frame.cursor = Canvas.Position(x: 5, y: 0)
        terminal.apply(writer.frame(frame))
        #expect(terminal.isCursorVisible)
        #expect(terminal.cursor == Canvas.Position(x: 5, y: 0))
        frame.cursor = nil
        terminal.apply(writer.frame(frame))
        #expect(!terminal.isCursorVisible)
    }

    @Test func wideCharactersAreRewrittenWholeAndColumnsStayInPlace() {
        var writer = FrameWriter()
        var terminal = VirtualTerminal(width: 10, height: 1)
        let frames = [
            canvas(["할 일 ab"], width: 10), canvas(["ab할일 cd"], width: 10), canvas(["x할 일"], width: 10),
        ]
        for frame in frames {
            terminal.apply(writer.frame(frame))
            #expect(terminal.screen == frame)
        }
    }

    @Test func randomFramesReplayedOnATerminalAlwaysShowTheLatestFrame() {
        var generator = XorShift(seed: 20)
        var writer = FrameWriter()
        var terminal = VirtualTerminal(width: 16, height: 6)
        let alphabet: [Character] = ["a", "b", " ", "─", "한", "✓", "Z"]
        let styles = [TextStyle.plain, TextStyle(isInverse: true), TextStyle(foreground: .rgb(200, 10, 10))]
        var frame = Canvas(width: 16, height: 6)
        for _ in 0..<300 {
            for _ in 0..<Int(generator.next() % 8) {
                let x = Int(generator.next() % 16)
                let y = Int(generator.next() % 6)
                let character = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                frame.replace(x: x, y: y, with: character, style: styles[Int(generator.next() % 3)])
            }
            let before = terminal.screen
            let bytes = writer.frame(frame)
            terminal.apply(bytes)
            if terminal.screen != frame {
                Issue.record(
                    "before:\n\(before.text())\nframe:\n\(frame.text())\nshown:\n\(terminal.text)\nbytes: \(String(decoding: bytes, as: UTF8.self).debugDescription)"
                )
                return
            }
        }
    }

    @Test func coloursAreLoweredToTheTerminalsDepthAndNoColorKeepsAttributes() {
        let style = TextStyle(foreground: .rgb(255, 135, 0), background: .palette(196), isInverse: true)
        var frame = Canvas(width: 2, height: 1)
        frame.replace(x: 0, y: 0, with: "x", style: style)
        func written(_ depth: ColorDepth) -> String {
            var writer = FrameWriter(capabilities: TerminalCapabilities(colorDepth: depth))
            return String(decoding: writer.frame(frame), as: UTF8.self)
        }
        #expect(written(.trueColor).contains("38;2;255;135;0"))
        #expect(written(.ansi256).contains("38;5;208"))
        #expect(written(.ansi16).contains("7;33;41m"))
        #expect(written(.none).contains("\u{1B}[7mx"))
        #expect(!written(.none).contains("38;"))
    }

    @Test func aTerminalThatIsNotUTF8GetsASCIIInTheSameColumns() {
        var writer = FrameWriter(capabilities: TerminalCapabilities(isUnicode: false))
        var terminal = VirtualTerminal(width: 10, height: 2)
        terminal.apply(writer.frame(canvas(["┌─ 할 ─┐", "‹ ✓ • …"], width: 10)))
        #expect(terminal.text == "+- ?? -+\n< x * ~")
    }

    @Test func theEnvironmentDecidesDepthAndCharacterSet() {
        #expect(ColorDepth(environment: ["COLORTERM": "truecolor", "TERM": "xterm"]) == .trueColor)
        #expect(ColorDepth(environment: ["TERM": "tmux-256color"]) == .ansi256)
        #expect(ColorDepth(environment: ["TERM": "xterm"]) == .ansi16)
        #expect(ColorDepth(environment: ["TERM": "xterm-256color", "NO_COLOR": "1"]) == .none)
        #expect(ColorDepth(environment: ["TERM": "dumb"]) == .none)
        #expect(TerminalCapabilities(environment: ["LANG": "en_US.UTF-8"]).isUnicode)
        #expect(TerminalCapabilities(environment: ["LC_ALL": "C.utf8", "LANG": "C"]).isUnicode)
        #expect(!TerminalCapabilities(environment: ["LANG": "C"]).isUnicode)
        #expect(!TerminalCapabilities(environment: ["LC_ALL": "POSIX", "LANG": "en_US.UTF-8"]).isUnicode)
        #expect(!TerminalCapabilities(environment: [:]).isUnicode)
    }
}

/// Marsaglia's xorshift64, so that the random frames are the same on every run.
struct XorShift {
    var state: UInt64
    init(seed: UInt64) { state = seed | 1 }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
