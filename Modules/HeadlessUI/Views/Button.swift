import Layout
import TerminalCore

/// A titled control that runs an action when tapped, as `UIButton` with a primary action.
///
/// ```swift
/// let save = Button(title: "Save") { [weak self] in self?.save() }
/// save.isEnabled = !draft.isEmpty
/// ```
///
/// It draws as `[ Save ]`, dimmed when disabled and inverted while it has focus. A click, or
/// Enter or Space while it has focus, taps it; code and tests call ``tap()``.
open class Button: View, Drawable, Focusable, MouseResponder {
    /// The title between the brackets.
    public var title: String {
        didSet { if title != oldValue { invalidateIntrinsicContentSize() } }
    }
    /// Whether ``tap()`` runs the action. A disabled button is drawn dimmed.
    public var isEnabled = true
    /// Drawn inverted, as the highlighted state of a focused or pressed button.
    public var isHighlighted = false
    /// The title's style when enabled.
    public var titleStyle = TextStyle.plain
    /// What a tap does.
    public var primaryAction: (@MainActor () -> Void)?

    /// Creates a button with `title` that runs `action` when tapped.
    public init(title: String, action: (@MainActor () -> Void)? = nil) {
        self.title = title
        primaryAction = action
        super.init(frame: .zero)
    }

    /// Runs the action, as a tap would, and returns whether it ran: a disabled button ignores taps.
    @discardableResult
    public func tap() -> Bool {
        guard isEnabled, !isHidden else { return false }
        primaryAction?()
        return true
    }

    /// Whether the button is enabled and shown.
    public var canBecomeFocused: Bool { isEnabled && !isHidden }

    /// Enter and Space tap the button.
    open func handleKey(_ press: KeyPress) -> Bool {
        guard press.modifiers.isEmpty, press.key == .enter || press.key == .character(" ") else {
            return false
        }
        return tap()
    }

    /// A left click taps the button.
    open func handleMouse(_ event: MouseEvent, at point: Canvas.Position) -> Bool {
        guard case .press(.left) = event.kind else { return false }
        return tap()
    }

    /// `[ title ]`: the title's width plus four cells, by one row.
    open override var intrinsicContentSize: Size {
        Size(width: Double(title.terminalWidth + 4), height: 1)
    }

    /// The bottom of the row.
    open override var firstBaselineOffsetFromTop: Double? { 1 }

    /// Draws `[ title ]`, centred, dimmed when disabled.
    open func draw(in context: inout DrawingContext) {
        var style = titleStyle
        if !isEnabled { style.isDim = true }
        if isHighlighted || isFocused { style.isInverse = true }
        context.drawLine("[ \(title) ]", y: 0, alignment: .center, style: style)
    }
}
