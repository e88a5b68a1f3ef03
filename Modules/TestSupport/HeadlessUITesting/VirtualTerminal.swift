import HeadlessUI
import TerminalCore
import TerminalRuntime

/// A terminal screen in memory that understands what HeadlessUI writes: text, cursor
/// positioning, erasing, SGR styles, the private modes (alternate screen, cursor visibility,
/// synchronized output, bracketed paste, mouse; the alternate screen keeps the main screen and
/// its cursor to show again when it is left) and, when made with `kittyGraphics`, kitty's
/// graphics protocol (``graphics``).
///
/// Text wraps at the right margin as in a real terminal, whose auto-wrap (DECAWM, mode 7) is on
/// until `ESC [ ? 7 l`: a character in the last column leaves the cursor past it, and only the
/// next printable character goes to the start of the next row (the "pending wrap"); a carriage
/// return or a cursor position cancels it. A line feed on the bottom row scrolls the screen up.
/// With auto-wrap off, the last column is written over and what does not fit is dropped. These
/// are tmux's rules, which `VirtualTerminalWrapTests` checks on the same bytes; xterm differs in
/// two corners that HeadlessUI avoids: there, erasing (`ESC [ K`) while a wrap is pending erases
/// the last column, and a line feed cancels the pending wrap. Tests replay a `FrameWriter`'s bytes on it and compare
/// what it shows with the canvas that was drawn, so that a diff that forgets a cell, or moves
/// one, fails.
///
/// It answers as a terminal does: a primary device attributes request (`ESC [ c`) always, and a
/// graphics query when it speaks the protocol; ``takeReplies()`` gives the answers, for an
/// `InputDecoder`.
///
/// ```swift
/// var terminal = VirtualTerminal(width: 80, height: 24)
/// terminal.apply(writer.frame(canvas))
/// #expect(terminal.text == canvas.text())
/// ```
public struct VirtualTerminal: Sendable {
    /// The screen's cells.
    public private(set) var screen: Canvas
    /// The cursor's cell. After a character in the last column `x` is the width, one past it,
    /// as tmux reports it: the next character wraps first.
    public private(set) var cursor = Canvas.Position(x: 0, y: 0)
    /// The private modes turned on (`?1049`, `?25`, `?7`, …), by number.
    public private(set) var modes: Set<Int> = [7, 25]
    /// How many bytes it was given.
    public private(set) var byteCount = 0
    /// Kitty's graphics protocol: the images, the placements and the commands given.
    public private(set) var graphics: VirtualGraphics
    private var style = TextStyle.plain
    /// The main screen and its cursor while the alternate screen is shown (mode 1049 saves them
    /// and shows them again when it is turned off, as xterm does).
    private var mainScreen: (screen: Canvas, cursor: Canvas.Position)?
    private var pending: [UInt8] = []
    private var replies: [UInt8] = []

    /// A blank screen of `width` columns and `height` rows, which speaks kitty's graphics
    /// protocol when `kittyGraphics` is on.
    public init(width: Int, height: Int, kittyGraphics: Bool = false) {
        screen = Canvas(width: width, height: height)
        graphics = VirtualGraphics(isEnabled: kittyGraphics)
    }

    /// What the terminal answered since the last call, as it would write it on its input.
    public mutating func takeReplies() -> [UInt8] {
        defer { replies = [] }
        return replies
    }

    /// The rows as plain text, trailing spaces trimmed, as ``Canvas/text(styled:)`` writes them.
    public var text: String { screen.text() }

    /// Whether the cursor is shown (mode 25).
    public var isCursorVisible: Bool { modes.contains(25) }

    /// Whether the alternate screen is on (mode 1049).
    public var isAlternateScreen: Bool { modes.contains(1049) }

    /// Whether text wraps at the right margin (DECAWM, mode 7), as it does until `ESC [ ? 7 l`.
    public var isAutoWrapOn: Bool { modes.contains(7) }

    /// Resizes the screen as a terminal emulator does: the cells that still fit stay where they
    /// were and the rest is blank, so that a program that redraws only part of the screen after
    /// a resize leaves stale cells here too. The cursor stays inside.
    public mutating func resize(width: Int, height: Int) {
        (screen, cursor) = Self.resized(screen, cursor: cursor, width: width, height: height)
        if let main = mainScreen {
            mainScreen = Self.resized(main.screen, cursor: main.cursor, width: width, height: height)
        }
    }

    private static func resized(
        _ old: Canvas, cursor: Canvas.Position, width: Int, height: Int
    ) -> (Canvas, Canvas.Position) {
        var screen = Canvas(width: width, height: height)
        for y in 0..<min(old.height, screen.height) {
            for x in 0..<min(old.width, screen.width) where !old[x, y].isContinuation {
                screen.replace(x: x, y: y, with: old[x, y].character, style: old[x, y].style)
            }
        }
        let cursor = Canvas.Position(
            x: min(cursor.x, max(0, screen.width - 1)), y: min(cursor.y, max(0, screen.height - 1)))
        return (screen, cursor)
    }

    /// Interprets `bytes`.
    public mutating func apply(_ bytes: [UInt8]) {
        byteCount += bytes.count
        pending += bytes
        var index = 0
        while index < pending.count {
            let byte = pending[index]
            if byte == 0x1B {
                guard let length = escape(at: index) else { break }
                index += length
            } else if byte == 0x0D {
                cursor.x = 0
                index += 1
            } else if byte == 0x0A {
                lineFeed()
                index += 1
            } else if byte < 0x20 {
                index += 1
            } else {
                let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                guard index + length <= pending.count else { break }
                let text = String(decoding: pending[index..<(index + length)], as: UTF8.self)
                for character in text { put(character) }
                index += length
            }
        }
        pending.removeFirst(index)
    }

    private mutating func put(_ character: Character) {
        let width = max(1, character.terminalWidth)
        guard cursor.y < screen.height, width <= screen.width else { return }
        if cursor.x + width > screen.width {
            // No room left on the row: the pending wrap, or a wide character in the last column.
            guard isAutoWrapOn else { return }
            cursor.x = 0
            lineFeed()
        }
        screen.replace(x: cursor.x, y: cursor.y, with: character, style: style)
        cursor.x = isAutoWrapOn ? cursor.x + width : min(screen.width - 1, cursor.x + width)
    }

    /// The next row, in the same column (a pending wrap stays pending); on the bottom row the
    /// screen scrolls up a row instead, and the top row is gone. Kitty placements stay where they
    /// were, where kitty would scroll them with the text.
    private mutating func lineFeed() {
        guard cursor.y == screen.height - 1 else {
            cursor.y += 1
            return
        }
        var scrolled = Canvas(width: screen.width, height: screen.height)
        for y in stride(from: 1, to: screen.height, by: 1) {
            for x in 0..<screen.width where !screen[x, y].isContinuation {
                scrolled.replace(x: x, y: y - 1, with: screen[x, y].character, style: screen[x, y].style)
            }
        }
        screen = scrolled
    }

    /// Interprets the escape sequence at `start`; returns its length, or `nil` when it is not
    /// complete yet.
    private mutating func escape(at start: Int) -> Int? {
        guard start + 1 < pending.count else { return nil }
        switch pending[start + 1] {
        case UInt8(ascii: "_"), UInt8(ascii: "P"), UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "X"):
            return string(at: start)
        case UInt8(ascii: "["): break
        default: return 2
        }
        var index = start + 2
        while index < pending.count, !(0x40...0x7E).contains(pending[index]) { index += 1 }
        guard index < pending.count else { return nil }
        let parameters = String(decoding: pending[(start + 2)..<index], as: UTF8.self)
        csi(parameters, final: pending[index])
        return index - start + 1
    }

    /// An APC, DCS, OSC, PM or SOS string, up to its terminator (ST, or BEL for OSC); a kitty
    /// graphics command (an APC string starting with `G`) is interpreted, the others ignored.
    private mutating func string(at start: Int) -> Int? {
        var index = start + 2
        while index < pending.count {
            if pending[index] == 0x07 { return index - start + 1 }
            if pending[index] == 0x1B {
                guard index + 1 < pending.count else { return nil }
                if pending[index + 1] == UInt8(ascii: "\\") {
                    if pending[start + 1] == UInt8(ascii: "_"), start + 2 < index,
                        pending[start + 2] == UInt8(ascii: "G")
                    {
                        replies += graphics.apply(pending[(start + 3)..<index], cursor: cursor)
                    }
                    return index - start + 2
                }
            }
            index += 1
        }
        return nil
    }

    private mutating func csi(_ parameters: String, final: UInt8) {
        let isPrivate = parameters.hasPrefix("?")
        let numbers = parameters.dropFirst(isPrivate ? 1 : 0).split(
            separator: ";", omittingEmptySubsequences: false
        )
        .map { Int($0) ?? 0 }
        switch final {
        case UInt8(ascii: "H"):
            // Kept on the screen, as terminals do; it ends a pending wrap.
            let column = max(1, numbers.count > 1 ? numbers[1] : 1) - 1
            let row = max(1, numbers.first ?? 1) - 1
            cursor = Canvas.Position(
                x: max(0, min(column, screen.width - 1)), y: max(0, min(row, screen.height - 1)))
        case UInt8(ascii: "J") where (numbers.first ?? 0) == 0:
            // Erase from the cursor to the end of the screen, as blank cells.
            for y in cursor.y..<screen.height {
                for x in (y == cursor.y ? cursor.x : 0)..<screen.width {
                    screen.replace(x: x, y: y, with: " ", style: .plain)
                }
            }
        case UInt8(ascii: "J") where numbers.first == 2:
            // Kitty's protocol: clearing the screen clears its pictures too.
            screen = Canvas(width: screen.width, height: screen.height)
            graphics.clearPlacements()
        case UInt8(ascii: "K") where (numbers.first ?? 0) == 0:
            // Erase to the end of the line, as blank cells.
            for x in cursor.x..<screen.width where cursor.y < screen.height {
                screen.replace(x: x, y: cursor.y, with: " ", style: .plain)
            }
        case UInt8(ascii: "h") where isPrivate:
            if numbers.contains(1049), !modes.contains(1049) {
                graphics.clearPlacements()
                mainScreen = (screen, cursor)
                screen = Canvas(width: screen.width, height: screen.height)
            }
            modes.formUnion(numbers)
        case UInt8(ascii: "l") where isPrivate:
            if numbers.contains(1049), let main = mainScreen {
                graphics.clearPlacements()
                (screen, cursor) = main
                mainScreen = nil
            }
            modes.subtract(numbers)
        case UInt8(ascii: "c") where !isPrivate && (numbers.first ?? 0) == 0:
            // Primary device attributes: a VT220 with colours, as many terminals say.
            replies += Array("\u{1B}[?62;22c".utf8)
        case UInt8(ascii: "m"): applySGR(numbers)
        default: break
        }
    }

    private mutating func applySGR(_ numbers: [Int]) {
        var index = 0
        while index < numbers.count {
            let number = numbers[index]
            switch number {
            case 0: style = .plain
            case 1: style.isBold = true
            case 2: style.isDim = true
            case 4: style.isUnderlined = true
            case 7: style.isInverse = true
            case 30...37: style.foreground = Self.ansi[number - 30]
            case 40...47: style.background = Self.ansi[number - 40]
            case 90: style.foreground = .gray
            case 100: style.background = .gray
            case 38, 48:
                var color: Color?
                if index + 2 < numbers.count, numbers[index + 1] == 5 {
                    color = .palette(UInt8(clamping: numbers[index + 2]))
                    index += 2
                } else if index + 4 < numbers.count, numbers[index + 1] == 2 {
                    color = .rgb(
                        UInt8(clamping: numbers[index + 2]), UInt8(clamping: numbers[index + 3]),
                        UInt8(clamping: numbers[index + 4]))
                    index += 4
                }
                if number == 38 { style.foreground = color } else { style.background = color }
            default: break
            }
            index += 1
        }
    }

    private static let ansi: [Color] = [.black, .red, .green, .yellow, .blue, .magenta, .cyan, .white]
}
