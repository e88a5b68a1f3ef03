/// One edge, dimension, centre or baseline of a layout item, as `NSLayoutConstraint.Attribute`.
public enum LayoutAttribute: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The left edge.
    case left
    /// The right edge.
    case right
    /// The top edge.
    case top
    /// The bottom edge.
    case bottom
    /// The left edge in left-to-right layouts, the right edge in right-to-left ones. As in Auto
    /// Layout, leading and trailing measure leftwards in right-to-left layouts: a positive
    /// constant on `leading == superview.leading` insets the view in either direction.
    case leading
    /// The right edge in left-to-right layouts, the left edge in right-to-left ones.
    case trailing
    /// The width: a size, which a constant alone may set (`width == 10`), as no edge may.
    case width
    /// The height: a size, like ``width``.
    case height
    /// The horizontal centre.
    case centerX
    /// The vertical centre.
    case centerY
    /// The baseline of the last line of text (the bottom edge for views without text).
    case lastBaseline
    /// The baseline of the first line of text (the bottom edge for views without text).
    case firstBaseline
    /// The left edge inset by the layout margins.
    case leftMargin
    /// The right edge inset by the layout margins.
    case rightMargin
    /// The top edge inset by the layout margins.
    case topMargin
    /// The bottom edge inset by the layout margins.
    case bottomMargin
    /// The leading edge inset by the layout margins.
    case leadingMargin
    /// The trailing edge inset by the layout margins.
    case trailingMargin
    /// The horizontal centre of the margins.
    case centerXWithinMargins
    /// The vertical centre of the margins.
    case centerYWithinMargins

    /// The axis the attribute measures along.
    package var axis: LayoutAxis {
        switch self {
        case .left, .right, .leading, .trailing, .width, .centerX, .leftMargin, .rightMargin, .leadingMargin,
            .trailingMargin, .centerXWithinMargins:
            .horizontal
        case .top, .bottom, .height, .centerY, .lastBaseline, .firstBaseline, .topMargin, .bottomMargin,
            .centerYWithinMargins:
            .vertical
        }
    }

    /// Whether this is a width or a height rather than a position.
    package var isDimension: Bool { self == .width || self == .height }

    /// Whether the attribute depends on the layout direction.
    package var isDirectional: Bool {
        switch self {
        case .leading, .trailing, .leadingMargin, .trailingMargin: true
        default: false
        }
    }

    /// The attribute without its margin, and whether it had one: `.leftMargin` is `(.left, true)`.
    package var withoutMargin: (attribute: LayoutAttribute, isMargin: Bool) {
        switch self {
        case .leftMargin: (.left, true)
        case .rightMargin: (.right, true)
        case .topMargin: (.top, true)
        case .bottomMargin: (.bottom, true)
        case .leadingMargin: (.leading, true)
        case .trailingMargin: (.trailing, true)
        case .centerXWithinMargins: (.centerX, true)
        case .centerYWithinMargins: (.centerY, true)
        default: (self, false)
        }
    }

    /// The name, as SnapKit prints it: `top`, `leadingMargin`.
    public var description: String {
        switch self {
        case .left: "left"
        case .right: "right"
        case .top: "top"
        case .bottom: "bottom"
        case .leading: "leading"
        case .trailing: "trailing"
        case .width: "width"
        case .height: "height"
        case .centerX: "centerX"
        case .centerY: "centerY"
        case .lastBaseline: "lastBaseline"
        case .firstBaseline: "firstBaseline"
        case .leftMargin: "leftMargin"
        case .rightMargin: "rightMargin"
        case .topMargin: "topMargin"
        case .bottomMargin: "bottomMargin"
        case .leadingMargin: "leadingMargin"
        case .trailingMargin: "trailingMargin"
        case .centerXWithinMargins: "centerXWithinMargins"
        case .centerYWithinMargins: "centerYWithinMargins"
        }
    }
}
