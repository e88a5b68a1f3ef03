import HeadlessUI

/// A terminal screen in memory that understands what HeadlessUI writes: text, cursor
/// positioning, erasing, SGR styles and the private modes (alternate screen, cursor visibility,
/// synchronized output, bracketed paste, mouse). Tests replay a ``FrameWriter``'s bytes on it
/// and compare what it shows with the canvas that was drawn, so that a diff that forgets a
/// cell, or moves one, fails.
///
/// ```swift
/// var terminal = VirtualTerminal(width: 80, height: 24)
/// terminal.apply(writer.frame(canvas))
/// #expect(terminal.text == canvas.text())
/// ```
public struct VirtualTerminal: Sendable {
    /// The screen's cells.
    public private(set) var screen: Canvas
    /// The cursor's cell.
    public private(set) var cursor = Canvas.Position(x: 0, y: 0)
    /// The private modes turned on (`?1049`, `?25`, …), by number.
    public private(set) var modes: Set<Int> = [25]
    /// How many bytes it was given.
    public private(set) var byteCount = 0
    private var style = TextStyle.plain
    private var pending: [UInt8] = []

    /// A blank screen of `width` columns and `height` rows.
    public init(width: Int, height: Int) {
        screen = Canvas(width: width, height: height)
    }

    /// The rows as plain text, trailing spaces trimmed, as ``Canvas/text(styled:)`` writes them.
    public var text: String { screen.text() }

    /// Whether the cursor is shown (mode 25).
    public var isCursorVisible: Bool { modes.contains(25) }

    /// Whether the alternate screen is on (mode 1049).
    public var isAlternateScreen: Bool { modes.contains(1049) }

    /// Resizes the screen, keeping nothing (a terminal redraws after a resize).
    public mutating func resize(width: Int, height: Int) {
        screen = Canvas(width: width, height: height)
        cursor = Canvas.Position(x: 0, y: 0)
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
                cursor.y = min(screen.height - 1, cursor.y + 1)
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
        guard cursor.y < screen.height, cursor.x + width <= screen.width else { return }
        screen.replace(x: cursor.x, y: cursor.y, with: character, style: style)
        cursor.x = min(screen.width, cursor.x + width)
    }

    /// Interprets the escape sequence at `start`; returns its length, or `nil` when it is not
    /// complete yet.
    private mutating func escape(at start: Int) -> Int? {
        guard start + 1 < pending.count else { return nil }
        guard pending[start + 1] == UInt8(ascii: "[") else { return 2 }
        var index = start + 2
        while index < pending.count, !(0x40...0x7E).contains(pending[index]) { index += 1 }
        guard index < pending.count else { return nil }
        let parameters = String(decoding: pending[(start + 2)..<index], as: UTF8.self)
        csi(parameters, final: pending[index])
        return index - start + 1
    }

    private mutating func csi(_ parameters: String, final: UInt8) {
        let isPrivate = parameters.hasPrefix("?")
        let numbers = parameters.dropFirst(isPrivate ? 1 : 0).split(
            separator: ";", omittingEmptySubsequences: false
        )
        .map { Int($0) ?? 0 }
        switch final {
        case UInt8(ascii: "H"):
            cursor = Canvas.Position(
                x: max(1, numbers.count > 1 ? numbers[1] : 1) - 1, y: max(1, numbers.first ?? 1) - 1)
        case UInt8(ascii: "J") where numbers.first == 2:
            screen = Canvas(width: screen.width, height: screen.height)
        case UInt8(ascii: "K") where (numbers.first ?? 0) == 0:
            // Erase to the end of the line, as blank cells.
            for x in cursor.x..<screen.width where cursor.y < screen.height {
                screen.replace(x: x, y: cursor.y, with: " ", style: .plain)
            }
        case UInt8(ascii: "h") where isPrivate: modes.formUnion(numbers)
        case UInt8(ascii: "l") where isPrivate: modes.subtract(numbers)
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
