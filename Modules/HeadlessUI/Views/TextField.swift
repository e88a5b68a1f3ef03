import Layout
import TerminalCore

/// One line of editable text with a placeholder, as `UITextField`.
///
/// ```swift
/// let field = TextField(placeholder: "What needs doing?")
/// field.onSubmit = { [weak self] title in self?.save(title) }
/// field.becomeFocused()
/// ```
///
/// It draws as `[text      ]`, or `[placeholder]` dimmed when empty (without the brackets
/// when ``isBordered`` is off, as a command prompt). With focus it edits its text with the keys
/// of a line editor (cursor movement, Ctrl-A/E/K/U/W, history with Up and Down, Tab completion
/// through ``completion``), shows the terminal's cursor at the insertion point and scrolls
/// sideways to keep it visible. What is typed lives in the field, so a redraw never loses it.
/// ``onTextChange`` hears every change and ``onSubmit`` the Enter key.
open class TextField: View, Drawable, Focusable, MouseResponder {
    /// The text. Setting it moves the cursor to the end.
    public var text: String {
        didSet {
            guard text != oldValue else { return }
            if !isApplyingEdit { editor.text = text }
            invalidateIntrinsicContentSize()
            onTextChange?(text)
        }
    }
    /// What shows, dimmed, while the text is empty.
    public var placeholder: String {
        didSet { if placeholder != oldValue { invalidateIntrinsicContentSize() } }
    }
    /// Text drawn before the field's text, such as a prompt: `Dog> `.
    public var prompt: String = "" {
        didSet { if prompt != oldValue { invalidateIntrinsicContentSize() } }
    }
    /// Whether the text is drawn between brackets.
    public var isBordered = true {
        didSet { if isBordered != oldValue { invalidateIntrinsicContentSize() } }
    }
    /// Whether the field takes focus and edits.
    public var isEnabled = true
    /// How the text is drawn.
    public var textStyle = TextStyle.plain
    /// Called with the new text after each change.
    public var onTextChange: (@MainActor (String) -> Void)?
    /// Called with the text when Enter is pressed; the field is cleared and the line kept in
    /// its history. With no handler, Enter goes on to the key commands.
    public var onSubmit: (@MainActor (String) -> Void)?
    /// Gives the completions for the text before the cursor when Tab is pressed: whole words
    /// that start with the word being typed. With no handler, Tab moves the focus.
    public var completion: (@MainActor (String) -> [String])?

    /// The editor that holds the text, the cursor and the history.
    package private(set) var editor: LineEditor
    private var isApplyingEdit = false

    /// Creates a field with `text` and a `placeholder`.
    public init(text: String = "", placeholder: String = "") {
        self.text = text
        self.placeholder = placeholder
        editor = LineEditor(text: text)
        super.init(frame: .zero)
    }

    /// The wider of the text and the placeholder, plus the prompt and the brackets, by one row.
    open override var intrinsicContentSize: Size {
        let content = max(text.terminalWidth, placeholder.terminalWidth, 1)
        return Size(width: Double(content + prompt.terminalWidth + (isBordered ? 2 : 0)), height: 1)
    }

    /// The bottom of the row.
    open override var firstBaselineOffsetFromTop: Double? { 1 }

    // MARK: Focus and editing

    /// Whether the field is enabled and shown.
    public var canBecomeFocused: Bool { isEnabled && !isHidden }

    /// Edits the text; Enter submits when ``onSubmit`` is set, Tab completes when
    /// ``completion`` is set.
    open func handleKey(_ press: KeyPress) -> Bool {
        switch editor.handle(press) {
        case .edited:
            applyEdit()
            return true
        case .moved:
            setNeedsLayout()
            return true
        case .submitted(let line):
            guard let onSubmit else {
                // Give the line back: nobody takes it here.
                editor.text = line
                return false
            }
            applyEdit()
            onSubmit(line)
            return true
        case .completionRequested:
            guard let completion else { return false }
            if editor.complete(with: completion(editor.textBeforeCursor)) { applyEdit() }
            return true
        case .ignored:
            return false
        }
    }

    /// Inserts the pasted text at the cursor, its line breaks as spaces.
    open func handlePaste(_ text: String) -> Bool {
        editor.insert(text)
        applyEdit()
        return true
    }

    /// A click focuses the field (the window does that).
    open func handleMouse(_ event: MouseEvent, at point: Canvas.Position) -> Bool {
        if case .press(.left) = event.kind { return true }
        return false
    }

    private func applyEdit() {
        isApplyingEdit = true
        text = editor.text
        isApplyingEdit = false
    }

    // MARK: Drawing

    /// Draws the prompt, the brackets and the text (its end when it is long, or the part around
    /// the cursor while focused), or the placeholder dimmed.
    open func draw(in context: inout DrawingContext) {
        var x = context.draw(prompt, x: 0, y: 0, style: textStyle)
        var room = context.width - x
        if isBordered {
            guard room >= 2 else { return }
            context.draw("[", x: x, y: 0)
            context.draw("]", x: context.width - 1, y: 0)
            x += 1
            room -= 2
        }
        guard room > 0 else { return }
        let focused = isFocused
        if text.isEmpty {
            var style = textStyle
            style.isDim = true
            context.draw(
                TextLayout.truncate(placeholder, to: room, mode: .byTruncatingTail), x: x, y: 0, style: style)
            if focused { context.setCursor(x: x, y: 0) }
        } else if focused {
            let (shown, column) = editor.visibleText(width: room)
            context.draw(shown, x: x, y: 0, style: textStyle)
            context.setCursor(x: x + column, y: 0)
        } else {
            context.draw(
                TextLayout.truncate(text, to: room, mode: .byTruncatingHead), x: x, y: 0, style: textStyle)
        }
    }
}
