import ConstraintSolver

/// The four unknowns the solver finds for a view or a layout guide: its edges and size in the
/// coordinates of its root view. Only the workspace's tools, benchmarks and tests read the
/// variables themselves (`package`); to others it is what ``LayoutItem/layoutVariables`` names.
public final class LayoutVariables {
    /// The left edge.
    package let left: Variable
    /// The top edge.
    package let top: Variable
    /// The width; the right edge is no variable of its own, but `left + width`.
    package let width: Variable
    /// The height; the bottom edge is `top + height`.
    package let height: Variable

    init(name: String) {
        left = Variable("\(name).left")
        top = Variable("\(name).top")
        width = Variable("\(name).width")
        height = Variable("\(name).height")
    }

    /// All four, in the order left, top, width, height.
    package var all: [Variable] { [left, top, width, height] }

    /// The solved rectangle in root coordinates.
    var rect: Rect { Rect(x: left.value, y: top.value, width: width.value, height: height.value) }
}

/// Something constraints can position: a ``View`` or a ``LayoutGuide``, as UIKit's
/// `UILayoutSupport` items.
@MainActor
public protocol LayoutItem: AnyObject {
    /// The view whose tree the item is laid out in: the view itself, or a guide's owning view.
    var owningView: View? { get }
    /// The item's unknowns.
    var layoutVariables: LayoutVariables { get }
    /// The item's rectangle in its owning view's coordinates (for a view, its own bounds).
    var layoutFrame: Rect { get }
    /// A name for constraint descriptions: the view's type and identifier, or the guide's.
    var layoutDebugName: String { get }
}

extension LayoutItem {
    /// The linear expression of `attribute` for this item, in root coordinates.
    func expression(for attribute: LayoutAttribute, direction: LayoutDirection) -> Expression {
        let (plain, isMargin) = attribute.withoutMargin
        if isMargin, let view = self as? View {
            return view.layoutMarginsGuide.expression(for: plain, direction: direction)
        }
        let v = layoutVariables
        switch plain {
        case .left: return v.left.expression
        case .top: return v.top.expression
        case .width: return v.width.expression
        case .height: return v.height.expression
        case .right: return v.left + v.width
        case .bottom: return v.top + v.height
        case .centerX: return v.left + 0.5 * v.width
        case .centerY: return v.top + 0.5 * v.height
        // As in Auto Layout, leading and trailing measure leftwards in right-to-left layouts, so
        // `a.leading == b.leading + 8` insets `a` by 8 in either direction.
        case .leading:
            return direction == .leftToRight ? v.left.expression : -(v.left + v.width)
        case .trailing:
            return direction == .leftToRight ? v.left + v.width : -v.left
        case .firstBaseline:
            if let offset = (self as? View)?.firstBaselineOffsetFromTop { return v.top + offset }
            return v.top + v.height
        case .lastBaseline:
            let offset = (self as? View)?.lastBaselineOffsetFromBottom ?? 0
            return v.top + v.height - offset
        default:
            // Margin attributes of a guide: a guide has no margins of its own.
            return expression(for: plain, direction: direction)
        }
    }
}
