import Layout
import TerminalCore

/// The bar at the top of a ``NavigationController``: the back item, the title and a right item
/// on one row, and a rule under them, as `UINavigationBar`.
///
/// ```text
/// ‹ Todos           New todo            Save
/// ────────────────────────────────────────────
/// ```
///
/// It reads what it shows from the navigation controller when drawn, so titles changed at any
/// time are shown on the next frame. A click on the back item goes back
/// (``NavigationController/goBack()``); a click on the right item taps it.
open class NavigationBar: View, Drawable, MouseResponder {
    /// How the title is drawn.
    public var titleStyle = TextStyle(isBold: true)
    /// How the items are drawn.
    public var itemStyle = TextStyle(foreground: .cyan)
    weak var navigationController: NavigationController?

    /// Creates a bar; a navigation controller makes its own.
    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        accessibilityIdentifier = "NavigationBar"
    }

    /// Two rows: the items and the rule.
    open override var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: 2) }

    /// The back item's title, when the top controller has one to go back to.
    var backItemTitle: String? { navigationController?.backItemTitle }

    /// The title shown in the middle.
    var title: String? {
        guard let top = navigationController?.topViewController else { return nil }
        return top.navigationItem.title ?? top.title
    }

    private var backText: String? {
        backItemTitle.map { "‹ " + TextLayout.truncate($0, to: 16, mode: .byTruncatingTail) }
    }

    private var rightText: String? {
        (navigationController?.topViewController?.navigationItem.rightBarButtonItem?.title).map {
            TextLayout.truncate($0, to: 16, mode: .byTruncatingTail)
        }
    }

    /// A left click on the back item goes back; on the right item, taps it.
    open func handleMouse(_ event: MouseEvent, at point: Canvas.Position) -> Bool {
        guard case .press(.left) = event.kind, point.y == 0 else { return false }
        if let back = backText, (1..<(1 + back.terminalWidth)).contains(point.x) {
            return navigationController?.goBack() ?? false
        }
        let width = Renderer.cells(frame.width)
        if let right = rightText, ((width - 1 - right.terminalWidth)..<(width - 1)).contains(point.x) {
            return navigationController?.topViewController?.navigationItem.rightBarButtonItem?.tap() ?? false
        }
        return false
    }

    /// Draws the items, the title centred in the whole bar, and the rule.
    open func draw(in context: inout DrawingContext) {
        var leadingEnd = 0
        if let back = backText {
            leadingEnd = context.draw(back, x: 1, y: 0, style: itemStyle) + 2
        }
        var trailingStart = context.width
        if let right = navigationController?.topViewController?.navigationItem.rightBarButtonItem,
            let text = rightText
        {
            trailingStart = context.width - 1 - text.terminalWidth
            var style = itemStyle
            if !right.isEnabled { style.isDim = true }
            context.draw(text, x: trailingStart, y: 0, style: style)
        }
        if let title {
            // Centred in the bar when it fits there, else in the room between the items.
            let room = max(0, trailingStart - leadingEnd - 2)
            let fitted = TextLayout.truncate(title, to: room, mode: .byTruncatingTail)
            let centred = (context.width - fitted.terminalWidth) / 2
            let x = min(max(centred, leadingEnd + 1), trailingStart - 1 - fitted.terminalWidth)
            context.draw(fitted, x: x, y: 0, style: titleStyle)
        }
        if context.height > 1 { context.drawHorizontalLine(y: 1, style: TextStyle(isDim: true)) }
    }
}
