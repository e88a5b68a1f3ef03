import Layout
import TerminalCore

/// Read-only text on one line or several, as `UILabel`.
///
/// ```swift
/// let title = Label("할 일 목록")      // two cells a syllable
/// let note = Label(longText)
/// note.numberOfLines = 0              // wrap at words, as many lines as it takes
/// ```
///
/// A single-line label's intrinsic size is its text's width by one row. A multi-line label wraps
/// at ``preferredMaxLayoutWidth`` when set, else at the width layout gave it — so its height
/// follows its width, and the layout is solved again when the width changes, as Auto Layout does
/// for `UILabel`. A label whose width comes from its own text (one that hugs) measures itself
/// unwrapped again when its text changes.
open class Label: View, Drawable {
    /// The text; newlines start new lines in a multi-line label.
    public var text: String {
        didSet { if text != oldValue { textDidChange() } }
    }
    /// The most lines to show: 1 (the default) for one line, 0 for no limit.
    public var numberOfLines = 1 {
        didSet { if numberOfLines != oldValue { textDidChange() } }
    }
    /// Where each line sits in the label's width.
    public var textAlignment = TextAlignment.natural
    /// What happens to text that does not fit: word wrapping and then a tail `…` by default.
    public var lineBreakMode = LineBreakMode.byTruncatingTail {
        didSet { if lineBreakMode != oldValue { textDidChange() } }
    }
    /// The width a multi-line label wraps at when measuring itself, or `nil` to wrap at its
    /// current width.
    public var preferredMaxLayoutWidth: Double? {
        didSet { if preferredMaxLayoutWidth != oldValue { textDidChange() } }
    }
    /// How the text is drawn.
    public var textStyle = TextStyle.plain
    /// Whether the text is drawn inverted, as a label in a selected cell is, like
    /// `UILabel.isHighlighted`.
    public var isHighlighted = false

    /// The width a multi-line label wraps at when measuring itself: `nil` (no limit) after the
    /// text changes, then the width layout gave it when that was narrower.
    private var wrapLimit: Int?
    /// Whether the next measure of the new text asks for ``layoutSubviews()``: the layout that
    /// measures it calls it once the frame is solved, so that a label whose width does not
    /// change wraps the new text at that width too.
    private var rewrapsAfterMeasure = false

    /// Creates a label showing `text`.
    public init(_ text: String = "") {
        self.text = text
        super.init(frame: .zero)
    }

    private func textDidChange() {
        // No setNeedsLayout: this pass's frame predates the new text. The new intrinsic size is
        // solved first, and a size change brings layoutSubviews; a label whose width its
        // constraints fix keeps its size, so its next measure asks for layoutSubviews itself.
        wrapLimit = nil
        rewrapsAfterMeasure = numberOfLines != 1
        invalidateIntrinsicContentSize()
    }

    /// The text's width by one row, or, for a multi-line label, the wrapped lines' widest width
    /// by their number.
    open override var intrinsicContentSize: Size {
        guard !text.isEmpty else { return .zero }
        guard numberOfLines != 1 else { return Size(width: Double(singleLine.terminalWidth), height: 1) }
        if rewrapsAfterMeasure {
            rewrapsAfterMeasure = false
            setNeedsLayout()
        }
        let limit = preferredMaxLayoutWidth.map { max(1, Int($0)) } ?? wrapLimit
        let lines = layOut(width: limit ?? Int.max / 4, maximumLines: numberOfLines)
        return Size(width: Double(lines.map(\.terminalWidth).max() ?? 0), height: Double(lines.count))
    }

    private var singleLine: String {
        text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " ")
    }

    private func layOut(width: Int, maximumLines: Int) -> [String] {
        let truncation: LineBreakMode
        switch lineBreakMode {
        case .byWordWrapping, .byCharWrapping: truncation = .byClipping
        default: truncation = lineBreakMode
        }
        return TextLayout.lines(
            of: text, width: width, maximumLines: maximumLines,
            wrapping: lineBreakMode == .byCharWrapping ? .byCharWrapping : .byWordWrapping,
            truncation: truncation)
    }

    /// The first line's baseline: the bottom of the first row.
    open override var firstBaselineOffsetFromTop: Double? { text.isEmpty ? nil : 1 }

    /// Re-measures a multi-line label at the width layout gave it, so that its height follows:
    /// first when that width is narrower than the unwrapped text, then whenever it changes.
    open override func layoutSubviews() {
        super.layoutSubviews()
        guard numberOfLines != 1, preferredMaxLayoutWidth == nil else { return }
        let current = Renderer.cells(frame.width)
        guard current > 0, current != wrapLimit else { return }
        let unwrapped = text.split(separator: "\n").map(\.terminalWidth).max() ?? 0
        if wrapLimit != nil || current < unwrapped {
            wrapLimit = current
            invalidateIntrinsicContentSize()
        }
    }

    /// The lines as drawn in the label's current frame.
    package var renderedLines: [String] {
        let width = Renderer.cells(frame.width)
        let rows = Renderer.cells(frame.height)
        guard rows > 0 else { return [] }
        let limit = numberOfLines == 0 ? rows : min(rows, numberOfLines)
        return layOut(width: width, maximumLines: limit)
    }

    /// Draws the lines, each aligned in the label's width.
    open func draw(in context: inout DrawingContext) {
        var style = textStyle
        if isHighlighted { style.isInverse = true }
        for (row, line) in renderedLines.enumerated() where row < context.height {
            context.drawLine(line, y: row, alignment: textAlignment, mode: .byClipping, style: style)
        }
    }
}
