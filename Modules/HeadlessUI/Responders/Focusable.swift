import Layout
import TerminalCore

/// A view that can have keyboard focus and takes key presses while it has it, as a
/// `UIResponder` that can become first responder.
///
/// The window keeps one focused view (``Window/focusedView``). Tab and Shift-Tab move focus
/// through the focusable views on screen in reading order; a click on one focuses it. A key
/// press goes to the focused view first; what it does not handle goes on to the key commands
/// (``KeyCommand``).
@MainActor
public protocol Focusable: View {
    /// Whether the view takes focus now; a disabled button does not.
    var canBecomeFocused: Bool { get }
    /// Handles a key press while focused; returns `false` to pass it on.
    func handleKey(_ press: KeyPress) -> Bool
    /// Handles pasted text while focused; returns `false` to pass it on.
    func handlePaste(_ text: String) -> Bool
}

extension Focusable {
    /// Pastes nothing.
    public func handlePaste(_ text: String) -> Bool { false }

    /// Whether the view has its window's focus.
    public var isFocused: Bool { window?.focusedView === self }

    /// Asks the window for focus, as `becomeFirstResponder()`; returns whether the view has it.
    @discardableResult
    public func becomeFocused() -> Bool {
        window?.focus(self) ?? false
    }
}

/// A view that takes mouse presses, drags and the wheel.
///
/// The window sends a mouse event to the deepest visible view under it that conforms, then to
/// that view's superviews that conform, until one handles it.
@MainActor
public protocol MouseResponder: View {
    /// Handles `event` at `point`, in cells from the view's top-left corner; returns `false`
    /// to pass it on to the superview.
    func handleMouse(_ event: MouseEvent, at point: Canvas.Position) -> Bool
}
