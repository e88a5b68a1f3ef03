import Layout
import TerminalCore

/// A bordered box with an optional title in its top edge, holding its content in
/// ``contentView``.
///
/// ```swift
/// let box = BoxView(title: "Profile", border: .rounded)
/// box.contentView.addSubview(nameLabel)
/// ```
///
/// ``contentView`` fills the box inside the border, so constraints to it keep content off the
/// lines; the box's intrinsic size is its content's plus the border.
open class BoxView: View, Drawable {
    /// The title drawn in the top edge.
    public var title: String?
    /// The border's characters.
    public var border: BorderStyle
    /// How the border and title are drawn.
    public var borderTextStyle = TextStyle.plain
    /// The view inside the border, one cell in from each edge.
    public let contentView = View()

    /// Creates a box with a `border` and an optional `title`.
    public init(title: String? = nil, border: BorderStyle = .single) {
        self.title = title
        self.border = border
        super.init(frame: .zero)
        addSubview(contentView)
        contentView.accessibilityIdentifier = "BoxView.contentView"
        contentView.pinEdges(to: self, insets: EdgeInsets(all: 1), identifier: "BoxView-border")
    }

    /// Draws the border and the title.
    open func draw(in context: inout DrawingContext) {
        context.drawBox(border: border, title: title, style: borderTextStyle)
    }
}
