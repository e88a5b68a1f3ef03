import HeadlessUI
import TerminalCore

/// Writes frames to a terminal as the difference from the frame before: only the cells that
/// changed, as ratatui's double buffer does.
///
/// ```swift
/// var writer = FrameWriter(capabilities: TerminalCapabilities(environment: environment))
/// output.write(writer.frame(window.render()))   // the first frame: every cell
/// label.text = "Saved"
/// output.write(writer.frame(window.render()))   // the label's cells only
/// writer.invalidate()                            // after a resize, a resume or Ctrl-L
/// ```
///
/// Each frame is wrapped in synchronized output (DEC mode 2026), so that a terminal that knows
/// the mode shows it at once and one that does not ignores the markers. The cursor stays hidden
/// while cells are written and shows afterwards only where the canvas puts it
/// (``Canvas/cursor``). Styles are lowered to the terminal's ``ColorDepth``, and on a terminal
/// that is not UTF-8 every character goes through `GlyphFallback`.
///
/// A full frame, the first one or the one after ``invalidate()``, clears the screen and writes
/// every cell that is not blank. In a diff, a row whose changed end is blank is erased to its
/// end in one sequence rather than written over with spaces.
///
/// Pictures on a terminal with kitty's graphics protocol (the canvas's ``Canvas/images``) are
/// diffed as well: a picture's pixels are sent once and placed over its cells; a frame where it
/// did not change writes nothing for it; one where it moved, was resized or went away deletes
/// its placement. A full frame frees every picture the terminal holds and sends them again.
package struct FrameWriter: Sendable {
    /// What the terminal shows.
    package var capabilities: TerminalCapabilities
    private var previous: Canvas?
    private var images = KittyImageLayer()
    private var cursorVisible = false
    /// Whether the last frame was written in full: the first, one after ``invalidate()``, or one
    /// of another size. For tests.
    package private(set) var lastFrameWasFull = false

    /// A writer whose first frame is written in full.
    package init(capabilities: TerminalCapabilities = TerminalCapabilities()) {
        self.capabilities = capabilities
    }

    /// Makes the next frame a full one: after a resize, a resume, Ctrl-L, or anything else that
    /// may have changed the screen behind the writer's back.
    package mutating func invalidate() {
        previous = nil
    }

    /// The bytes that turn the terminal's screen from the last frame into `canvas`; empty when
    /// nothing changed.
    package mutating func frame(_ canvas: Canvas) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        let full = previous?.width != canvas.width || previous?.height != canvas.height
        let before = full ? Canvas(width: canvas.width, height: canvas.height) : (previous ?? canvas)
        lastFrameWasFull = full
        var cursor: (x: Int, y: Int)? = nil
        var style = TextStyle.plain
        var began = false

        func begin() {
            guard !began else { return }
            began = true
            out.append(contentsOf: Self.beginSynchronized)
            if cursorVisible || full { out.append(contentsOf: Self.hideCursor) }
            cursorVisible = false
            if full { out.append(contentsOf: Self.clearScreen) }
        }
        if full { begin() }
        if full || previous?.images != canvas.images {
            let removed = full ? images.removeAll() : images.removals(keeping: canvas.images)
            if !removed.isEmpty {
                begin()
                out += removed
            }
        }

        let width = canvas.width
        let newCells = canvas.cells
        let oldCells = before.cells
        for y in 0..<canvas.height {
            let row = y * width
            // Where the rest of the new row is blank: a change there is one erase to the end.
            var blankFrom = width
            while blankFrom > 0, newCells[row + blankFrom - 1] == .blank { blankFrom -= 1 }
            var x = 0
            while x < width {
                if x >= blankFrom, !full {
                    guard (x..<width).contains(where: { oldCells[row + $0] != .blank }) else { break }
                    begin()
                    if cursor?.y != y || cursor?.x != x { Self.move(x: x, y: y, into: &out) }
                    if style != .plain {
                        out.append(contentsOf: Self.resetStyle)
                        style = .plain
                    }
                    out.append(contentsOf: Self.eraseToEndOfLine)
                    cursor = (x, y)
                    break
                }
                guard newCells[row + x] != oldCells[row + x] || (full && newCells[row + x] != .blank) else {
                    x += 1
                    continue
                }
                // A changed right half is written with its left half.
                var start = x
                if newCells[row + start].isContinuation, start > 0 { start -= 1 }
                begin()
                if let at = cursor, at.y == y, at.x <= start, start - at.x <= 4 {
                    // Rewriting a few unchanged cells is shorter than moving the cursor.
                    var gap = at.x
                    while gap < start {
                        gap += write(newCells[row + gap], style: &style, into: &out)
                    }
                } else if cursor?.y != y || cursor?.x != start {
                    Self.move(x: start, y: y, into: &out)
                }
                let advance = write(newCells[row + start], style: &style, into: &out)
                cursor = (start + advance, y)
                x = start + advance
            }
        }
        if style != .plain {
            out.append(contentsOf: Self.resetStyle)
        }
        if full || previous?.images != canvas.images {
            let added = images.additions(
                for: canvas.images,
                cellPixelSize: capabilities.cellPixelSize ?? TerminalCapabilities.defaultCellPixelSize
            ) { x, y, out in Self.move(x: x, y: y, into: &out) }
            if !added.isEmpty {
                begin()
                out += added
            }
        }
        if let position = canvas.cursor, position.x < width, position.y < canvas.height {
            if began || !cursorVisible || previous?.cursor != position {
                begin()
                Self.move(x: position.x, y: position.y, into: &out)
                out.append(contentsOf: Self.showCursor)
                cursorVisible = true
            }
        } else if cursorVisible {
            begin()
            out.append(contentsOf: Self.hideCursor)
            cursorVisible = false
        }
        if began { out.append(contentsOf: Self.endSynchronized) }
        previous = canvas
        return out
    }

    /// Frees the pictures the terminal holds for this writer: what a program writes before it
    /// leaves the screen. Empty when it holds none.
    package mutating func releaseImages() -> [UInt8] {
        images.removeAll()
    }

    /// Writes one cell (a wide character takes two) and returns the cells the cursor moved.
    private func write(_ cell: Canvas.Cell, style current: inout TextStyle, into out: inout [UInt8]) -> Int {
        if cell.isContinuation {
            // The left half was overwritten alone, which Canvas never does; keep columns right.
            out.append(UInt8(ascii: " "))
            return 1
        }
        let lowered = lower(cell.style)
        if lowered != current {
            out.append(contentsOf: Self.resetStyle)
            out.append(contentsOf: lowered.escapeSequence(depth: capabilities.colorDepth).utf8)
            current = lowered
        }
        let width = max(1, cell.character.terminalWidth)
        if capabilities.isUnicode {
            out.append(contentsOf: String(cell.character).utf8)
        } else {
            out.append(contentsOf: GlyphFallback.ascii(for: cell.character).utf8)
        }
        return width
    }

    /// The style as the terminal shows it, so that styles differing only in what it drops do
    /// not cost an SGR each.
    private func lower(_ style: TextStyle) -> TextStyle {
        guard capabilities.colorDepth < .trueColor else { return style }
        var lowered = style
        lowered.foreground = style.foreground.flatMap(capabilities.colorDepth.lower)
        lowered.background = style.background.flatMap(capabilities.colorDepth.lower)
        return lowered
    }

    private static func move(x: Int, y: Int, into out: inout [UInt8]) {
        out.append(contentsOf: "\u{1B}[\(y + 1);\(x + 1)H".utf8)
    }

    static let beginSynchronized = Array("\u{1B}[?2026h".utf8)
    static let endSynchronized = Array("\u{1B}[?2026l".utf8)
    static let hideCursor = Array("\u{1B}[?25l".utf8)
    static let showCursor = Array("\u{1B}[?25h".utf8)
    static let resetStyle = Array("\u{1B}[0m".utf8)
    static let eraseToEndOfLine = Array("\u{1B}[K".utf8)
    static let clearScreen = Array("\u{1B}[0m\u{1B}[H\u{1B}[2J".utf8)
}
