import Foundation
import HeadlessUI
import Layout
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@MainActor
@Suite("Terminal: size from the TTY, styles only where wanted")
struct TerminalTests {
    @Test func theSizeComesFromAPseudoTerminalsWindowSize() throws {
        // posix_openpt and friends are not in Swift's Glibc module; these are what they do.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // _IOW('T', 0x31, int) and _IOR('T', 0x30, unsigned int) on Linux, which Swift does not
        // import because they are function-like macros.
        let unlockPseudoTerminal: UInt = 0x4004_5431
        let pseudoTerminalNumber: UInt = 0x8004_5430
        #expect(ioctl(master, unlockPseudoTerminal, &unlock) == 0)
        #expect(ioctl(master, pseudoTerminalNumber, &number) == 0)
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        try #require(slave >= 0)
        defer { close(slave) }
        var size = winsize(ws_row: 31, ws_col: 97, ws_xpixel: 0, ws_ypixel: 0)
        try #require(ioctl(master, UInt(TIOCSWINSZ), &size) == 0)
        #expect(Terminal.isTerminal(slave))
        #expect(Terminal.size(fileDescriptor: slave) == Size(width: 97, height: 31))
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
        #expect(written == "\u{1B}[H\u{1B}[0m\u{1B}[1ma\u{1B}[0m  \u{1B}[K\r\n   \u{1B}[K\u{1B}[J")
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
