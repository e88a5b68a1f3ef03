import Layout
import TerminalCore

/// Read-only text of many lines in a box, scrolled inside it, as a non-editable `UITextView`:
/// help, a log, a tree dump.
///
/// ```swift
/// let help = TextView(text: KeyCommand.helpText(for: window.availableKeyCommands), title: "Help")
/// ```
///
/// Long lines wrap at words to the box's width. With focus, Up and Down scroll a line, Page Up
/// and Page Down a page, Home and End to the ends; the wheel scrolls three lines. The bottom edge
/// shows which lines are in view when not all fit. The text never scrolls the terminal.
open class TextView: View, Drawable, Focusable, MouseResponder {
    /// The text; newlines start new lines.
    public var text: String {
        didSet { if text != oldValue { scrollOffset = 0 } }
    }
    /// The title in the top edge.
    public var title: String?
    /// The border's characters.
    public var border = BorderStyle.rounded
    /// How the text is drawn.
    public var textStyle = TextStyle.plain
    /// The first line in view.
    public var scrollOffset = 0

    /// A text view showing `text` under `title`.
    public init(text: String = "", title: String? = nil) {
        self.text = text
        self.title = title
        super.init(frame: .zero)
    }

    /// The lines wrapped to the box's inner width. A line that fits is kept as it is, spaces
    /// and all, so that columns stay aligned; a longer one wraps at words, its continuation
    /// lines indented to its second column (after the first run of two or more spaces), as a
    /// help table's descriptions are.
    package var wrappedLines: [String] {
        let width = max(1, Renderer.cells(frame.width) - 4)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard paragraph.terminalWidth > width else {
                lines.append(String(paragraph))
                continue
            }
            let head = TextLayout.prefix(of: paragraph, width: width)
            let cut =
                head.lastIndex(of: " ").map { head.distance(from: head.startIndex, to: $0) } ?? head.count
            let first = String(paragraph.prefix(max(1, cut)))
            lines.append(first)
            var indent = 0
            if let column = paragraph.range(of: "  ") {
                let after = paragraph[column.lowerBound...].prefix { $0 == " " }
                indent = paragraph[..<column.lowerBound].terminalWidth + after.count
            }
            if width - indent < 12 { indent = 0 }
            let rest = paragraph.dropFirst(first.count).drop { $0 == " " }
            lines += TextLayout.lines(
                of: String(rest), width: width - indent, maximumLines: 0, wrapping: .byWordWrapping,
                truncation: .byClipping
            ).map { String(repeating: " ", count: indent) + $0 }
        }
        return lines
    }

    private var visibleLineCount: Int { max(0, Renderer.cells(frame.height) - 2) }

    private var maximumOffset: Int { max(0, wrappedLines.count - visibleLineCount) }

    /// Scrolls by `lines` (up when negative), within the text.
    public func scroll(by lines: Int) {
        scrollOffset = min(max(0, scrollOffset + lines), maximumOffset)
    }

    /// Whether the view is shown.
    public var canBecomeFocused: Bool { !isHidden }

    /// Scrolls with the arrows, Page Up/Down and Home/End.
    open func handleKey(_ press: KeyPress) -> Bool {
        guard press.modifiers.isEmpty else { return false }
        let page = max(1, visibleLineCount - 1)
        switch press.key {
        case .up: scroll(by: -1)
        case .down: scroll(by: 1)
        case .pageUp: scroll(by: -page)
        case .pageDown, .character(" "): scroll(by: page)
        case .home: scrollOffset = 0
        case .end: scrollOffset = maximumOffset
        default: return false
        }
        return true
    }

    /// The wheel scrolls three lines a notch.
    open func handleMouse(_ event: MouseEvent, at point: Canvas.Position) -> Bool {
        switch event.kind {
        case .scrollUp: scroll(by: -3)
        case .scrollDown: scroll(by: 3)
        default: return false
        }
        return true
    }

    /// Draws the box, the lines in view, and where they are when not all fit.
    open func draw(in context: inout DrawingContext) {
        context.fill()
        context.drawBox(border: border, title: title)
        let lines = wrappedLines
        let rows = visibleLineCount
        scrollOffset = min(scrollOffset, maximumOffset)
        for row in 0..<rows where scrollOffset + row < lines.count {
            context.draw(lines[scrollOffset + row], x: 2, y: 1 + row, style: textStyle)
        }
        if lines.count > rows, rows > 0 {
            let position = " \(scrollOffset + 1)–\(min(lines.count, scrollOffset + rows)) of \(lines.count) "
            let x = context.width - 2 - position.terminalWidth
            if x > 1 { context.draw(position, x: x, y: context.height - 1, style: TextStyle(isDim: true)) }
        }
    }
}
