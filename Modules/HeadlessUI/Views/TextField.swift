import Layout

/// One line of editable text with a placeholder, as `UITextField`.
///
/// It draws as `[text      ]`, or `[placeholder]` dimmed when empty. A terminal app edits it
/// from its command line, by setting ``text``; ``onTextChange`` hears every change.
open class TextField: View, Drawable {
    /// The text.
    public var text: String {
        didSet {
            guard text != oldValue else { return }
            invalidateIntrinsicContentSize()
            onTextChange?(text)
        }
    }
    /// What shows, dimmed, while the text is empty.
    public var placeholder: String {
        didSet { if placeholder != oldValue { invalidateIntrinsicContentSize() } }
    }
    /// How the text is drawn.
    public var textStyle = TextStyle.plain
    /// Called with the new text after each change.
    public var onTextChange: (@MainActor (String) -> Void)?

    /// Creates a field with `text` and a `placeholder`.
    public init(text: String = "", placeholder: String = "") {
        self.text = text
        self.placeholder = placeholder
        super.init(frame: .zero)
    }

    /// The wider of the text and the placeholder, plus the two brackets, by one row.
    open override var intrinsicContentSize: Size {
        Size(width: Double(max(text.terminalWidth, placeholder.terminalWidth, 1) + 2), height: 1)
    }

    /// The bottom of the row.
    open override var firstBaselineOffsetFromTop: Double? { 1 }

    /// Draws the brackets and the text, or the placeholder dimmed; a long text shows its end,
    /// where typing happens.
    open func draw(in context: inout DrawingContext) {
        guard context.width >= 2 else { return }
        context.draw("[", x: 0, y: 0)
        context.draw("]", x: context.width - 1, y: 0)
        let room = context.width - 2
        if text.isEmpty {
            var style = textStyle
            style.isDim = true
            context.draw(
                TextLayout.truncate(placeholder, to: room, mode: .byTruncatingTail), x: 1, y: 0, style: style)
        } else {
            context.draw(
                TextLayout.truncate(text, to: room, mode: .byTruncatingHead), x: 1, y: 0, style: textStyle)
        }
    }
}
