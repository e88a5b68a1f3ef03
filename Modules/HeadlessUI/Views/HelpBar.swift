import Layout
import TerminalCore

/// One row that lists the key commands on screen, as terminal apps show their keys at the
/// bottom: `n New  d Delete  ? Help  ^C Quit`.
///
/// It reads the window's ``Window/availableKeyCommands`` each time it is drawn, so it always
/// shows what the keys do now: a command declared once (``KeyCommand``) is run by its key and
/// listed here. Commands without a key, or with ``KeyCommand/Declaration/showsInHelpBar`` off, are
/// left to the help text. What does not fit is cut at a whole command.
open class HelpBar: View, Drawable {
    /// How the keys are drawn.
    public var keyStyle = TextStyle(isBold: true)
    /// How the titles are drawn.
    public var titleStyle = TextStyle(isDim: true)
    /// Items drawn after the commands, such as the application's own keys:
    /// `[(KeyPress("c", modifiers: .control), "Quit")]`.
    public var trailingItems: [(key: KeyPress, title: String)] = []

    /// Creates a help bar.
    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        accessibilityIdentifier = "HelpBar"
    }

    /// One row.
    open override var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: 1) }

    /// The items shown: each command's first key and title, then ``trailingItems``.
    public var items: [(key: String, title: String)] {
        let commands = (window?.availableKeyCommands ?? []).filter { $0.showsInHelpBar && !$0.keys.isEmpty }
        return commands.map { ($0.keys[0].description, $0.title) }
            + trailingItems.map { ($0.key.description, $0.title) }
    }

    /// Draws the items from the left, as many whole ones as fit.
    open func draw(in context: inout DrawingContext) {
        var x = 1
        for item in items {
            let width = item.key.terminalWidth + 1 + item.title.terminalWidth
            guard x + width <= context.width else { break }
            x += context.draw(item.key, x: x, y: 0, style: keyStyle) + 1
            x += context.draw(item.title, x: x, y: 0, style: titleStyle) + 2
        }
    }
}
