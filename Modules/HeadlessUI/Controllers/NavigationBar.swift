import Layout

/// The bar at the top of a ``NavigationController``: the back item, the title and a right item
/// on one row, and a rule under them, as `UINavigationBar`.
///
/// ```text
/// ‹ Todos           New todo            Save
/// ────────────────────────────────────────────
/// ```
///
/// It reads what it shows from the navigation controller when drawn, so titles changed at any
/// time are shown on the next frame.
open class NavigationBar: View, Drawable {
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
    public var backItemTitle: String? { navigationController?.backItemTitle }

    /// The title shown in the middle.
    public var title: String? {
        guard let top = navigationController?.topViewController else { return nil }
        return top.navigationItem.title ?? top.title
    }

    /// Draws the items, the title centred in the whole bar, and the rule.
    open func draw(in context: inout DrawingContext) {
        var leadingEnd = 0
        if let back = backItemTitle {
            leadingEnd =
                context.draw(
                    "‹ " + TextLayout.truncate(back, to: 16, mode: .byTruncatingTail), x: 1, y: 0,
                    style: itemStyle) + 2
        }
        var trailingStart = context.width
        if let right = navigationController?.topViewController?.navigationItem.rightBarButtonItem {
            let text = TextLayout.truncate(right.title, to: 16, mode: .byTruncatingTail)
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
