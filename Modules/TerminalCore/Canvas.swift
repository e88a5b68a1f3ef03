/// A grid of character cells: what a renderer draws into and a terminal shows.
///
/// A wide character takes its cell and the next one, which is then a continuation cell that
/// prints nothing. Writing over either half of a wide character blanks the other half, as a
/// terminal does.
public struct Canvas: Sendable, Hashable {
    /// One cell of the grid.
    package struct Cell: Sendable, Hashable {
        /// The character drawn in the cell; a space when nothing is.
        package var character: Character
        /// How the character is drawn.
        package var style: TextStyle
        /// Whether the cell is the right half of a wide character to its left.
        package var isContinuation: Bool

        /// A space in the plain style: what a new canvas holds, and what the frame writer may
        /// leave unwritten at the end of a row.
        package static let blank = Cell(character: " ", style: .plain, isContinuation: false)
    }

    /// The number of columns.
    public let width: Int
    /// The number of rows.
    public let height: Int
    /// Where the terminal's cursor shows, as a text field that has focus puts it; `nil` keeps it
    /// hidden.
    package var cursor: Position?
    /// The pictures the terminal draws itself over the cells, with kitty's graphics protocol,
    /// in the order they were drawn (``ImagePlacement``). Empty unless the terminal speaks it.
    package var images: [ImagePlacement] = []
    /// The cells, row by row, for the frame writer.
    package private(set) var cells: [Cell]

    /// A cell's column and row, from 0.
    public struct Position: Sendable, Hashable {
        /// The column.
        public var x: Int
        /// The row.
        public var y: Int

        /// The cell at column `x`, row `y`.
        public init(x: Int, y: Int) {
            self.x = x
            self.y = y
        }
    }

    /// A blank canvas of `width` columns and `height` rows (negative sizes count as 0).
    package init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// The cell at column `x` and row `y`, both from 0. A cell outside the canvas is a programmer
    /// error, as an index outside an array is: it stops the program.
    package subscript(x: Int, y: Int) -> Cell {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "cell (\(x), \(y)) is outside the canvas")
        return cells[y * width + x]
    }

    /// Puts `character` at (`x`, `y`) if it fits inside `clip`, and returns the cells it took.
    /// A wide character that would stick out of `clip` is drawn as a space instead.
    @discardableResult
    package mutating func put(
        _ character: Character, x: Int, y: Int, style: TextStyle, clip: CellRect
    ) -> Int {
        let cellWidth = character.terminalWidth
        guard cellWidth > 0 else { return 0 }
        guard clip.contains(x: x, y: y) else { return cellWidth }
        if cellWidth == 2 && !clip.contains(x: x + 1, y: y) {
            set(Cell(character: " ", style: style, isContinuation: false), x: x, y: y)
            return cellWidth
        }
        set(Cell(character: character, style: style, isContinuation: false), x: x, y: y)
        if cellWidth == 2 { set(Cell(character: " ", style: style, isContinuation: true), x: x + 1, y: y) }
        return cellWidth
    }

    /// Puts `character` at (`x`, `y`) as a terminal prints it, for this package's test terminal.
    package mutating func replace(x: Int, y: Int, with character: Character, style: TextStyle) {
        put(character, x: x, y: y, style: style, clip: CellRect(x: 0, y: 0, width: width, height: height))
    }

    private mutating func set(_ cell: Cell, x: Int, y: Int) {
        if !images.isEmpty { cover(x: x, y: y) }
        let index = y * width + x
        // Overwriting half of a wide character blanks its other half, as a terminal does. A
        // continuation cell is only ever set right after its own left half.
        if cells[index].isContinuation {
            if !cell.isContinuation, x > 0 { cells[index - 1] = .blank }
        } else if x + 1 < width, cells[index + 1].isContinuation {
            cells[index + 1] = .blank
        }
        cells[index] = cell
    }

    /// The rows as plain text, without styles. Trailing spaces are trimmed, so that snapshot
    /// files stay readable in any editor.
    public var lines: [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width where !cells[y * width + x].isContinuation {
                line.append(cells[y * width + x].character)
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The canvas as text: plain rows joined by newlines, or, with `styled`, every cell with the
    /// ANSI escape sequences of its style (each row ends with a reset).
    public func text(styled: Bool = false) -> String {
        guard styled else { return lines.joined(separator: "\n") }
        return (0..<height).map(styledLine(_:)).joined(separator: "\n")
    }

    /// Row `y` with the escape sequences of its styles, ending with a reset.
    package func styledLine(_ y: Int) -> String {
        var line = ""
        var current = TextStyle.plain
        for x in 0..<width {
            let cell = cells[y * width + x]
            if cell.isContinuation { continue }
            if cell.style != current {
                line += "\u{1B}[0m" + cell.style.escapeSequence
                current = cell.style
            }
            line.append(cell.character)
        }
        if current != .plain { line += "\u{1B}[0m" }
        return line
    }
}

/// A rectangle of whole cells: its top-left cell (from 0) and its size in cells.
package struct CellRect: Hashable, Sendable {
    /// The leftmost column.
    package var x: Int
    /// The top row.
    package var y: Int
    /// The number of columns.
    package var width: Int
    /// The number of rows.
    package var height: Int

    /// The rectangle from column `x`, row `y`, `width` columns wide and `height` rows tall.
    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The column just right of the rectangle.
    package var maxX: Int { x + width }
    /// The row just below the rectangle.
    package var maxY: Int { y + height }
    /// Whether it covers no cell.
    package var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Whether the cell at column `px`, row `py` is inside.
    package func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }

    /// Whether the two rectangles share a cell.
    package func intersects(_ other: CellRect) -> Bool { !intersection(other).isEmpty }

    /// The cells in both.
    package func intersection(_ other: CellRect) -> CellRect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        return CellRect(
            x: left, y: top, width: max(0, min(maxX, other.maxX) - left),
            height: max(0, min(maxY, other.maxY) - top))
    }
}
