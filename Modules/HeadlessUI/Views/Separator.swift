import Layout
import TerminalCore

/// A thin line between views: a horizontal rule one row high, or a vertical one a column wide.
open class Separator: View, Drawable {
    /// Along which axis the line runs.
    public let axis: LayoutAxis
    /// The line's characters.
    public var border = BorderStyle.single
    /// How the line is drawn.
    public var lineStyle = TextStyle(isDim: true)

    /// Creates a horizontal (default) or vertical separator.
    public init(axis: LayoutAxis = .horizontal) {
        self.axis = axis
        super.init(frame: .zero)
    }

    /// One cell thick; no opinion about its length.
    open override var intrinsicContentSize: Size {
        axis == .horizontal
            ? Size(width: View.noIntrinsicMetric, height: 1) : Size(width: 1, height: View.noIntrinsicMetric)
    }

    /// Draws the line through the middle of the view.
    open func draw(in context: inout DrawingContext) {
        if axis == .horizontal {
            context.drawHorizontalLine(y: context.height / 2, border: border, style: lineStyle)
        } else {
            context.drawVerticalLine(x: context.width / 2, border: border, style: lineStyle)
        }
    }
}
