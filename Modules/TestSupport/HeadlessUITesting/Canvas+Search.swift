import HeadlessUI
import TerminalCore

extension Canvas {
    /// The cell where `text` first starts, reading rows top to bottom, or `nil` when no row
    /// holds it; a wide character's continuation cell is skipped, as on screen. Tests use it to
    /// say where the cursor belongs ("just after `[milk`") without counting columns by hand.
    public func position(of text: String) -> Position? {
        let wanted = Array(text)
        guard !wanted.isEmpty else { return nil }
        for y in 0..<height {
            let row = (0..<width).filter { !self[$0, y].isContinuation }
            for start in row.indices where row.count - start >= wanted.count {
                if zip(row[start...], wanted).allSatisfy({ self[$0.0, y].character == $0.1 }) {
                    return Position(x: row[start], y: y)
                }
            }
        }
        return nil
    }
}

extension TerminalPilot {
    /// Where the terminal shows its cursor now, or `nil` while it is hidden: what the user
    /// sees after the last step, not what the frame asked for.
    public var shownCursor: Canvas.Position? {
        terminal.isCursorVisible ? terminal.cursor : nil
    }
}
