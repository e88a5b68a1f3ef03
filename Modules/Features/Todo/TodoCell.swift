import Domain
import HeadlessUI
import TerminalCore

/// A todo's row: `  3. [x] Buy oat milk`, with a `›` in the left margin when it is selected, so
/// that the selection shows without colour too.
final class TodoCell: TableViewCell {
    override func draw(in context: inout DrawingContext) {
        super.draw(in: &context)
        if isSelected { _ = context.draw("›", x: 0, y: 0, style: TextStyle(isBold: true, isInverse: true)) }
    }

    /// `number` right-aligned to `digits` after a space, so that the boxes line up past row 9
    /// and the selection mark never touches the number: `  3. [ ] bread`, ` 12. [x] tea`.
    static func text(for todo: Todo, number: Int, digits: Int) -> String {
        let pad = String(repeating: " ", count: max(0, digits - String(number).count) + 1)
        return "\(pad)\(number). [\(todo.isDone ? "x" : " ")] \(todo.title)"
    }
}
