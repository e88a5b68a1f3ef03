import Foundation
import HeadlessUI
import HeadlessUITesting
import Layout
import TerminalCore
import TerminalRuntime
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@MainActor
@Suite("Terminal: size from the TTY, styles only where wanted")
struct TerminalTests {
    @Test func theSizeComesFromAPseudoTerminalsWindowSize() throws {
        let terminal = try PseudoTerminalPair.open(columns: 97, rows: 31)
        defer {
            close(terminal.master)
            close(terminal.slave)
        }
        let slave = terminal.slave
        #expect(Terminal.isTerminal(slave))
        #expect(Terminal.size(fileDescriptor: slave) == Size(width: 97, height: 31))
        #expect(Terminal.cellPixelSize(fileDescriptor: slave) == nil, "no pixels reported, none guessed")
    }

    @Test func theCellsPixelsComeFromTheWindowSizeWhenTheTerminalReportsThem() throws {
        let terminal = try PseudoTerminalPair.open(columns: 80, rows: 24, cellPixels: (9, 18))
        defer {
            close(terminal.master)
            close(terminal.slave)
        }
        #expect(Terminal.cellPixelSize(fileDescriptor: terminal.slave) == Size(width: 9, height: 18))
    }

    @Test func aPipeIsNoTerminalAndHasNoSize() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { fds.forEach { close($0) } }
        #expect(!Terminal.isTerminal(fds[1]))
        #expect(Terminal.size(fileDescriptor: fds[1]) == nil)
    }

    @Test func stylesAreOffWithNoColorOffADumbTerminalAndOffANonTerminal() {
        #expect(Terminal.wantsStyles(environment: ["TERM": "xterm-256color"], isTerminal: true))
        #expect(!Terminal.wantsStyles(environment: ["NO_COLOR": "1"], isTerminal: true))
        // no-color.org: an empty NO_COLOR counts as unset.
        #expect(Terminal.wantsStyles(environment: ["NO_COLOR": ""], isTerminal: true))
        #expect(!Terminal.wantsStyles(environment: ["TERM": "dumb"], isTerminal: true))
        #expect(!Terminal.wantsStyles(environment: [:], isTerminal: false))
    }

    @Test func aPipedScreenAppendsPlainFramesThroughARealFileDescriptor() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let screen = TerminalScreen(fileDescriptor: fds[1])
        #expect(screen.mode == .append)
        #expect(!screen.isStyled)
        var canvas = Canvas(width: 3, height: 2)
        canvas = withStyledCell(canvas)
        screen.present(canvas)
        close(fds[1])
        let output = FileHandle(fileDescriptor: fds[0]).readDataToEndOfFile()
        #expect(String(decoding: output, as: UTF8.self) == "a\n\n\n")
    }

    @Test func aLiveScreenRedrawsInPlaceWithStyles() {
        var written = ""
        let screen = TerminalScreen(mode: .live, styled: true) { written += $0 }
        screen.present(withStyledCell(Canvas(width: 3, height: 2)))
        #expect(written == "\u{1B}[H\u{1B}[0m\u{1B}[1ma\u{1B}[0m  \r\n\u{1B}[J   ")
    }

    /// A row that reaches the last column leaves the cursor waiting past it (the pending wrap),
    /// where xterm's erase to the end of the line would erase that column: the row's last cell
    /// is lost. So only shorter rows are erased to their end, and the screen below is cleared
    /// before the last row is written.
    @Test func aLiveScreenNeverErasesAfterARowThatReachesTheLastColumn() {
        var written = ""
        let screen = TerminalScreen(mode: .live, styled: false) { written += $0 }
        let frame = rendered(["abc", "a", "abc"], width: 3)
        screen.present(frame)
        #expect(written == "\u{1B}[H" + "abc\r\n" + "a\u{1B}[K\r\n" + "\u{1B}[J" + "abc")

        // Over an earlier, fuller frame on a taller terminal, it shows the new frame alone.
        var terminal = VirtualTerminal(width: 3, height: 4)
        terminal.apply(Array("xxxxxxxxxxxx".utf8))
        terminal.apply(Array(written.utf8))
        #expect(
            terminal.text.split(separator: "\n", omittingEmptySubsequences: false) == ["abc", "a", "abc", ""])
    }

    /// A canvas `width` wide with `rows`, drawn by labels as any view draws.
    private func rendered(_ rows: [String], width: Int) -> Canvas {
        let root = View(frame: Rect(x: 0, y: 0, width: Double(width), height: Double(rows.count)))
        for (y, text) in rows.enumerated() {
            let label = Label(text)
            label.frame = Rect(x: 0, y: Double(y), width: Double(width), height: 1)
            root.addSubview(label)
        }
        return Renderer.render(root)
    }

    private func withStyledCell(_ canvas: Canvas) -> Canvas {
        // Canvas has no public writer; a one-cell label draws into it the way any view does.
        let root = View(frame: Rect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height)))
        let label = Label("a")
        label.textStyle = TextStyle(isBold: true)
        label.frame = Rect(x: 0, y: 0, width: 1, height: 1)
        root.addSubview(label)
        return Renderer.render(root)
    }
}
