import Layout
import TerminalCore

/// What a view draws with: the canvas, seen through the view's frame.
///
/// Coordinates are the view's own, in cells: (0, 0) is its top-left corner and
/// (``width`` − 1, ``height`` − 1) its bottom-right. Whatever falls outside the view's frame, or
/// outside an ancestor's, is clipped.
public struct DrawingContext {
    /// The view's width in cells.
    public internal(set) var width = 0
    /// The view's height in cells.
    public internal(set) var height = 0
    /// The view's layout direction, for ``TextAlignment/natural``.
    public internal(set) var layoutDirection = LayoutDirection.leftToRight
    /// What the terminal the frame is for shows (its window's ``Window/capabilities``), for
    /// views that draw differently without colours or UTF-8.
    public internal(set) var capabilities = TerminalCapabilities()

    var canvas: Canvas
    /// The view's top-left corner on the canvas.
    var origin = (x: 0, y: 0)
    /// Where drawing may land, in canvas coordinates.
    var clip = CellRect(x: 0, y: 0, width: 0, height: 0)
    /// How many pictures were drawn so far in the frame (``drawImage(_:x:y:width:height:)``).
    var imageCount = 0
    /// The pictures, by their number in the frame, drawn as half blocks even on a terminal with
    /// graphics, because something is drawn over them.
    var halfBlockImages: Set<Int> = []

    init(canvas: Canvas) {
        self.canvas = canvas
    }

    /// Draws `text` on one line starting at (`x`, `y`), and returns the cells it took. Newlines
    /// and other control characters are skipped.
    @discardableResult
    public mutating func draw(_ text: String, x: Int, y: Int, style: TextStyle = .plain) -> Int {
        var column = x
        for character in text {
            column += canvas.put(character, x: origin.x + column, y: origin.y + y, style: style, clip: clip)
        }
        return column - x
    }

    /// Draws `text` on row `y`, aligned in the view's width and truncated as `mode` says when it
    /// does not fit.
    public mutating func drawLine(
        _ text: String, y: Int, alignment: TextAlignment = .natural, mode: LineBreakMode = .byTruncatingTail,
        style: TextStyle = .plain
    ) {
        let line = TextLayout.truncate(text, to: width, mode: mode)
        draw(line, x: offset(ofLineWidth: line.terminalWidth, alignment: alignment), y: y, style: style)
    }

    /// The column a line of `lineWidth` cells starts at when aligned in the view's width.
    func offset(ofLineWidth lineWidth: Int, alignment: TextAlignment) -> Int {
        let free = max(0, width - lineWidth)
        switch alignment {
        case .left: return 0
        case .right: return free
        case .center: return free / 2
        case .natural: return layoutDirection == .leftToRight ? 0 : free
        }
    }

    /// Shows the terminal's cursor at (`x`, `y`) when the frame is on screen, as a focused text
    /// field does at its insertion point; nothing when the cell is clipped.
    public mutating func setCursor(x: Int, y: Int) {
        let position = Canvas.Position(x: origin.x + x, y: origin.y + y)
        guard clip.contains(x: position.x, y: position.y) else { return }
        canvas.cursor = position
    }

    /// Fills a rectangle with `character` (a space by default) in `style`.
    public mutating func fill(
        x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil, with character: Character = " ",
        style: TextStyle = .plain
    ) {
        let columns = width ?? self.width - x
        let rows = height ?? self.height - y
        let step = max(1, character.terminalWidth)
        for row in y..<(y + max(0, rows)) {
            for column in stride(from: x, to: x + columns, by: step) {
                canvas.put(character, x: origin.x + column, y: origin.y + row, style: style, clip: clip)
            }
        }
    }

    /// Draws a horizontal line across row `y`, from column `x` for `length` cells (to the right
    /// edge by default).
    public mutating func drawHorizontalLine(
        y: Int, x: Int = 0, length: Int? = nil, border: BorderStyle = .single, style: TextStyle = .plain
    ) {
        fill(x: x, y: y, width: length ?? width - x, height: 1, with: border.horizontal, style: style)
    }

    /// Draws a vertical line down column `x`, from row `y` for `length` cells (to the bottom by
    /// default).
    public mutating func drawVerticalLine(
        x: Int, y: Int = 0, length: Int? = nil, border: BorderStyle = .single, style: TextStyle = .plain
    ) {
        fill(x: x, y: y, width: 1, height: length ?? height - y, with: border.vertical, style: style)
    }

    /// Draws a box around the whole view (or the given rectangle), with an optional title in its
    /// top edge: `┌─ Title ───┐`.
    public mutating func drawBox(
        x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil, border: BorderStyle = .single,
        title: String? = nil, style: TextStyle = .plain
    ) {
        let columns = width ?? self.width - x
        let rows = height ?? self.height - y
        guard columns >= 2, rows >= 2 else { return }
        drawHorizontalLine(y: y, x: x + 1, length: columns - 2, border: border, style: style)
        drawHorizontalLine(y: y + rows - 1, x: x + 1, length: columns - 2, border: border, style: style)
        drawVerticalLine(x: x, y: y + 1, length: rows - 2, border: border, style: style)
        drawVerticalLine(x: x + columns - 1, y: y + 1, length: rows - 2, border: border, style: style)
        draw(String(border.topLeft), x: x, y: y, style: style)
        draw(String(border.topRight), x: x + columns - 1, y: y, style: style)
        draw(String(border.bottomLeft), x: x, y: y + rows - 1, style: style)
        draw(String(border.bottomRight), x: x + columns - 1, y: y + rows - 1, style: style)
        if let title, !title.isEmpty, columns >= 5 {
            // Between the corner and a dash on the left, and the corner on the right.
            let fitted = TextLayout.truncate(" \(title) ", to: columns - 3, mode: .byTruncatingTail)
            draw(fitted, x: x + 2, y: y, style: style)
        }
    }
}
