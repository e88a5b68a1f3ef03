import Layout

/// An item with attributes to relate to, as SnapKit's `ConstraintItem`: `other.ndl.bottom`.
@MainActor
public struct ConstraintItem {
    /// The view or guide.
    let target: any LayoutItem
    /// The attributes named, or ``ConstraintAttributes/none`` for the item as a whole.
    let attributes: ConstraintAttributes

    /// Creates an item reference.
    init(target: any LayoutItem, attributes: ConstraintAttributes) {
        self.target = target
        self.attributes = attributes
    }
}

/// A constant a relation can take: a number, a size, a point or insets, as SnapKit's
/// `ConstraintConstantTarget`.
public enum ConstraintConstant: Sendable, Hashable {
    /// The same number for every attribute.
    case number(Double)
    /// Width and height; 0 for other attributes.
    case size(Size)
    /// x for horizontal attributes, y for vertical ones; 0 for width and height.
    case point(Point)
    /// Insets from each edge: left and top add to the constant, right and bottom subtract, as
    /// SnapKit computes an inset.
    case insets(EdgeInsets)
    /// Insets from the top, leading, bottom and trailing edges.
    case directionalInsets(DirectionalEdgeInsets)

    /// The constant one attribute gets, as SnapKit computes it: for insets, left and top add,
    /// right and bottom subtract, centres take half the difference, width and height shrink by
    /// both sides, and leading and trailing follow `direction`.
    func value(for attribute: LayoutAttribute, direction: LayoutDirection) -> Double {
        switch self {
        case .number(let number):
            return number
        case .size(let size):
            switch attribute {
            case .width: return size.width
            case .height: return size.height
            default: return 0
            }
        case .point(let point):
            if attribute.isDimension { return 0 }
            return attribute.axis == .horizontal ? point.x : point.y
        case .insets(let insets):
            return Self.value(of: insets, for: attribute, direction: direction)
        case .directionalInsets(let insets):
            return Self.value(of: insets.resolved(in: direction), for: attribute, direction: direction)
        }
    }

    private static func value(
        of insets: EdgeInsets, for attribute: LayoutAttribute, direction: LayoutDirection
    )
        -> Double
    {
        let leftToRight = direction == .leftToRight
        switch attribute.withoutMargin.attribute {
        case .left: return insets.left
        case .top, .firstBaseline: return insets.top
        case .right: return -insets.right
        case .bottom, .lastBaseline: return -insets.bottom
        // Leading and trailing measure leftwards in right-to-left layouts (see LayoutAttribute).
        case .leading: return leftToRight ? insets.left : insets.right
        case .trailing: return leftToRight ? -insets.right : -insets.left
        case .centerX: return (insets.left - insets.right) / 2
        case .centerY: return (insets.top - insets.bottom) / 2
        case .width: return -(insets.left + insets.right)
        case .height: return -(insets.top + insets.bottom)
        default: return 0
        }
    }

    var isFinite: Bool {
        switch self {
        case .number(let number): number.isFinite
        case .size(let size): size.width.isFinite && size.height.isFinite
        case .point(let point): point.x.isFinite && point.y.isFinite
        case .insets(let i): [i.top, i.left, i.bottom, i.right].allSatisfy(\.isFinite)
        case .directionalInsets(let i): [i.top, i.leading, i.bottom, i.trailing].allSatisfy(\.isFinite)
        }
    }
}

/// What a relation relates to: an item's attributes, or a constant.
public enum ConstraintRelationTarget {
    /// Another item, or some of its attributes.
    case item(ConstraintItem)
    /// A constant; positions relate to the superview, widths and heights to nothing.
    case constant(ConstraintConstant)
}

/// A value `equalTo` and its siblings accept, as SnapKit's `ConstraintRelatableTarget`: a
/// number, a ``Size``, a ``Point``, insets, a ``View``, a ``LayoutGuide`` or a
/// ``ConstraintItem`` such as `other.ndl.bottom`.
@MainActor
public protocol ConstraintRelatableTarget {
    /// What the value stands for.
    var constraintRelationTarget: ConstraintRelationTarget { get }
}

extension Double: ConstraintRelatableTarget {
    /// The number.
    public var constraintRelationTarget: ConstraintRelationTarget { .constant(.number(self)) }
}

extension Int: ConstraintRelatableTarget {
    /// The number.
    public var constraintRelationTarget: ConstraintRelationTarget { .constant(.number(Double(self))) }
}

extension Float: ConstraintRelatableTarget {
    /// The number.
    public var constraintRelationTarget: ConstraintRelationTarget { .constant(.number(Double(self))) }
}

extension Size: ConstraintRelatableTarget {
    /// The size.
    public var constraintRelationTarget: ConstraintRelationTarget { .constant(.size(self)) }
}

extension Point: ConstraintRelatableTarget {
    /// The point.
    public var constraintRelationTarget: ConstraintRelationTarget { .constant(.point(self)) }
}

extension EdgeInsets: ConstraintRelatableTarget {
    /// The insets.
    public var constraintRelationTarget: ConstraintRelationTarget { .constant(.insets(self)) }
}

extension DirectionalEdgeInsets: ConstraintRelatableTarget {
    /// The insets.
    public var constraintRelationTarget: ConstraintRelationTarget { .constant(.directionalInsets(self)) }
}

extension ConstraintItem: ConstraintRelatableTarget {
    /// The item's attributes.
    public var constraintRelationTarget: ConstraintRelationTarget { .item(self) }
}

extension View: ConstraintRelatableTarget {
    /// The view as a whole: each attribute relates to the same attribute of the view.
    public var constraintRelationTarget: ConstraintRelationTarget {
        .item(ConstraintItem(target: self, attributes: .none))
    }
}

extension LayoutGuide: ConstraintRelatableTarget {
    /// The guide as a whole: each attribute relates to the same attribute of the guide.
    public var constraintRelationTarget: ConstraintRelationTarget {
        .item(ConstraintItem(target: self, attributes: .none))
    }
}
