import Layout
import TerminalCore

/// The bar at the bottom of a ``TabBarController``: a rule, then the tabs' titles on one row,
/// the selected one in brackets and highlighted, as `UITabBar`.
///
/// ```text
/// ──────────────────────────────
/// [1 Todos]  2 Profile •3
/// ```
///
/// A click on a tab selects it, as a tap does.
open class TabBar: View, Drawable, MouseResponder {
    /// How the selected tab is drawn.
    public var selectedStyle = TextStyle(isBold: true, isInverse: true)
    /// How the other tabs are drawn.
    public var itemStyle = TextStyle.plain
    /// Text drawn at the right end of the tabs' row, such as the app's name; `nil` for none.
    public var trailingText: String? {
        didSet { if trailingText != oldValue { setNeedsLayout() } }
    }
    /// How ``trailingText`` is drawn.
    public var trailingStyle = TextStyle(isDim: true)
    weak var tabBarController: TabBarController?

    /// Creates a bar; a tab bar controller makes its own.
    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        accessibilityIdentifier = "TabBar"
    }

    /// Two rows: the rule and the tabs.
    open override var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: 2) }

    /// The tabs' labels as drawn: the number to select it with, the title and the badge.
    package var itemTitles: [String] {
        guard let controller = tabBarController else { return [] }
        return controller.viewControllers.enumerated().map { index, tab in
            let rootTitle = (tab as? NavigationController)?.viewControllers.first?.title
            var text = "\(index + 1) " + (tab.tabBarItem.title ?? tab.title ?? rootTitle ?? "Tab")
            if let badge = tab.tabBarItem.badgeValue { text += " •" + badge }
            return text
        }
    }

    /// The tabs as drawn on the second row: each one's text and the columns it takes.
    private var drawnItems: [(text: String, columns: Range<Int>)] {
        var x = 1
        let selected = tabBarController?.selectedIndex
        return itemTitles.enumerated().map { index, title in
            // Brackets mark the selection where styles are off (NO_COLOR, plain text).
            let text = index == selected ? "[\(title)]" : " \(title) "
            defer { x += text.terminalWidth + 1 }
            return (text, x..<(x + text.terminalWidth))
        }
    }

    /// A left click on a tab's title selects it, as ``TabBarController/selectTab(at:)``.
    open func handleMouse(_ event: MouseEvent, at point: Canvas.Position) -> Bool {
        guard case .press(.left) = event.kind, point.y == 1,
            let index = drawnItems.firstIndex(where: { $0.columns.contains(point.x) })
        else { return false }
        return tabBarController?.selectTab(at: index) ?? false
    }

    /// Draws the rule and the tabs.
    open func draw(in context: inout DrawingContext) {
        context.drawHorizontalLine(y: 0, style: TextStyle(isDim: true))
        guard context.height > 1 else { return }
        var x = 1
        let selected = tabBarController?.selectedIndex
        for (index, item) in drawnItems.enumerated() {
            context.draw(
                item.text, x: item.columns.lowerBound, y: 1,
                style: index == selected ? selectedStyle : itemStyle)
            x = item.columns.upperBound + 1
        }
        if let trailingText {
            let width = trailingText.terminalWidth
            // Only where it fits after the tabs, so that it never covers one.
            if context.width - 1 - width > x {
                context.draw(trailingText, x: context.width - 1 - width, y: 1, style: trailingStyle)
            }
        }
    }
}
