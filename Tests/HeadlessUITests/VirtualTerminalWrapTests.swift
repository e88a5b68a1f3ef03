import Foundation
import HeadlessUI
import HeadlessUITesting
import TerminalCore
import Testing

/// ``VirtualTerminal`` wraps text at the right margin as a real terminal does, so that a test
/// reading the screen through it sees what a user sees. Each case is bytes written on a blank
/// 10×4 screen and what tmux shows for them (its pane's rows and cursor), which
/// `tmuxShowsTheSame` checks again in a real tmux pane. (Erasing is here too, as the
/// pending wrap changes what it erases.)
@Suite("VirtualTerminal: auto-wrap at the right margin (DECAWM), as tmux shows it")
struct VirtualTerminalWrapTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: String
        /// The rows down to the last one with text, trailing spaces trimmed.
        let rows: [String]
        let cursor: Canvas.Position

        init(_ name: String, _ bytes: String, rows: [String], cursor: (x: Int, y: Int)) {
            self.name = name
            self.bytes = bytes
            self.rows = rows
            self.cursor = Canvas.Position(x: cursor.x, y: cursor.y)
        }

        var testDescription: String { name }
    }

    static let width = 10
    static let height = 4

    static let cases = [
        Case(
            "text past the right margin goes on at the next row", "0123456789AB", rows: ["0123456789", "AB"],
            cursor: (2, 1)),
        Case(
            "the last column leaves the wrap pending; CR LF then goes to the next row once",
            "0123456789\r\nX", rows: ["0123456789", "X"], cursor: (1, 1)),
        Case(
            "a line feed alone keeps the wrap pending", "0123456789\nX", rows: ["0123456789", "", "X"],
            cursor: (1, 2)),
        Case(
            "erasing to the end of the row while the wrap is pending erases nothing", "0123456789\u{1B}[K",
            rows: ["0123456789"], cursor: (10, 0)),
        Case(
            "erasing to the end of the screen clears from the cursor down",
            "aaaaaaaaaabbbbbbbbbbcc\u{1B}[2;4H\u{1B}[J",
            rows: ["aaaaaaaaaa", "bbb"], cursor: (3, 1)),
        Case(
            "erasing to the end of the screen while the wrap is pending keeps the last column",
            "aaaaaaaaaabbbbbbbbbbcc\u{1B}[1;10Hx\u{1B}[J", rows: ["aaaaaaaaax"], cursor: (10, 0)),
        Case(
            "a cursor position ends the pending wrap", "0123456789\u{1B}[2;3HX", rows: ["0123456789", "  X"],
            cursor: (3, 1)),
        Case(
            "a wide character that does not fit in the last column wraps whole", "012345678中",
            rows: ["012345678", "中"], cursor: (2, 1)),
        Case(
            "a wide character that fills the row leaves the wrap pending", "\u{1B}[1;9H中中",
            rows: ["        中", "中"], cursor: (2, 1)),
        Case(
            "wrapping on the bottom row scrolls the screen up", "aaaaaaaaaabbbbbbbbbbccccccccccddddddddddee",
            rows: ["bbbbbbbbbb", "cccccccccc", "dddddddddd", "ee"], cursor: (2, 3)),
        Case(
            "a line feed on the bottom row scrolls the screen up", "top\u{1B}[4;1Hx\ny",
            rows: ["", "", "x", " y"],
            cursor: (2, 3)),
        Case(
            "with auto-wrap off (ESC [ ? 7 l) the last column is written over", "\u{1B}[?7l0123456789AB",
            rows: ["012345678B"], cursor: (9, 0)),
        Case(
            "with auto-wrap off a wide character that does not fit is dropped", "\u{1B}[?7l012345678中",
            rows: ["012345678"], cursor: (9, 0)),
        Case(
            "auto-wrap on again (ESC [ ? 7 h) wraps again", "\u{1B}[?7l0123456789AB\u{1B}[?7h\rabcdefghijKL",
            rows: ["abcdefghij", "KL"], cursor: (2, 1)),
        Case(
            "auto-wrap turned off while the wrap is pending drops the next character",
            "0123456789\u{1B}[?7lY", rows: ["0123456789"], cursor: (10, 0)),
    ]

    /// `text`'s rows down to the last one with text.
    static func rows(_ text: String) -> [String] {
        var rows = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while rows.last?.isEmpty == true { rows.removeLast() }
        return rows
    }

    static func virtualTerminal(after bytes: String) -> VirtualTerminal {
        var terminal = VirtualTerminal(width: width, height: height)
        terminal.apply(Array(bytes.utf8))
        return terminal
    }

    @Test(arguments: cases)
    func virtualTerminalShowsWhatTmuxShows(_ example: Case) {
        let terminal = Self.virtualTerminal(after: example.bytes)
        #expect(Self.rows(terminal.text) == example.rows)
        #expect(terminal.cursor == example.cursor)
    }

    @Test func autoWrapIsOnUntilTurnedOff() {
        var terminal = VirtualTerminal(width: 10, height: 4)
        #expect(terminal.isAutoWrapOn)
        terminal.apply(Array("\u{1B}[?7l".utf8))
        #expect(!terminal.isAutoWrapOn)
        terminal.apply(Array("\u{1B}[?7h".utf8))
        #expect(terminal.isAutoWrapOn)
    }

    /// The same bytes in a tmux pane of the same size: `stty -opost` so that the line feeds
    /// reach tmux as they are, then `cat`, then a file that says the bytes are written. tmux
    /// may parse them a moment later, so the test waits for the expected screen (a few seconds
    /// at most) and then compares what it last saw.
    @Test(.serialized, arguments: cases)
    func tmuxShowsTheSame(_ example: Case) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wrap-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = folder.appendingPathComponent("bytes")
        let written = folder.appendingPathComponent("written")
        try Data(example.bytes.utf8).write(to: bytes)
        let tmux = Tmux()
        defer { tmux.close() }
        let script =
            "stty -opost -echo; cat \(Tmux.quoted(bytes.path)); touch \(Tmux.quoted(written.path)); exec sleep 600"
        try await tmux.start(command: "sh -c \(Tmux.quoted(script))", columns: Self.width, rows: Self.height)
        let wrote = try await TerminalWait.poll(every: .milliseconds(20)) {
            FileManager.default.fileExists(atPath: written.path) ? true : nil
        }
        try #require(wrote == true, "the pane's shell did not write the bytes")
        var seen: (rows: [String], cursor: Canvas.Position)?
        _ = try await TerminalWait.poll(every: .milliseconds(20), for: .seconds(5)) { () -> Bool? in
            let rows = Self.rows(try await tmux.capture())
            let position = try await tmux.run([
                "display-message", "-p", "-t", tmux.target, "#{cursor_x} #{cursor_y}",
            ])
            let numbers = position.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
            guard numbers.count == 2 else { return nil }
            seen = (rows, Canvas.Position(x: numbers[0], y: numbers[1]))
            return seen?.rows == example.rows && seen?.cursor == example.cursor ? true : nil
        }
        let tmuxScreen = try #require(seen)
        #expect(tmuxScreen.rows == example.rows, "tmux")
        #expect(tmuxScreen.cursor == example.cursor, "tmux's cursor")
        let terminal = Self.virtualTerminal(after: example.bytes)
        #expect(Self.rows(terminal.text) == tmuxScreen.rows, "VirtualTerminal")
        #expect(terminal.cursor == tmuxScreen.cursor, "VirtualTerminal's cursor")
    }
}
