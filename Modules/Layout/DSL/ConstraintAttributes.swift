/// The attributes a DSL chain names, as SnapKit's `ConstraintAttributes`: single ones combine
/// (`make.top.left`), and composites stand for several (`edges`, `size`, `center`…).
public struct ConstraintAttributes: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt32

    /// Creates attributes from bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// None: relate to an item as a whole.
    public static let none: ConstraintAttributes = []
    /// ``LayoutAttribute/left``, one member of a set.
    public static let left = ConstraintAttributes(rawValue: 1 << 0)
    /// ``LayoutAttribute/top``, one member of a set.
    public static let top = ConstraintAttributes(rawValue: 1 << 1)
    /// ``LayoutAttribute/right``, one member of a set.
    public static let right = ConstraintAttributes(rawValue: 1 << 2)
    /// ``LayoutAttribute/bottom``, one member of a set.
    public static let bottom = ConstraintAttributes(rawValue: 1 << 3)
    /// ``LayoutAttribute/leading``, one member of a set.
    public static let leading = ConstraintAttributes(rawValue: 1 << 4)
    /// ``LayoutAttribute/trailing``, one member of a set.
    public static let trailing = ConstraintAttributes(rawValue: 1 << 5)
    /// ``LayoutAttribute/width``, one member of a set.
    public static let width = ConstraintAttributes(rawValue: 1 << 6)
    /// ``LayoutAttribute/height``, one member of a set.
    public static let height = ConstraintAttributes(rawValue: 1 << 7)
    /// ``LayoutAttribute/centerX``, one member of a set.
    public static let centerX = ConstraintAttributes(rawValue: 1 << 8)
    /// ``LayoutAttribute/centerY``, one member of a set.
    public static let centerY = ConstraintAttributes(rawValue: 1 << 9)
    /// ``LayoutAttribute/lastBaseline``, one member of a set.
    public static let lastBaseline = ConstraintAttributes(rawValue: 1 << 10)
    /// ``LayoutAttribute/firstBaseline``, one member of a set.
    public static let firstBaseline = ConstraintAttributes(rawValue: 1 << 11)
    /// ``LayoutAttribute/leftMargin``, one member of a set.
    public static let leftMargin = ConstraintAttributes(rawValue: 1 << 12)
    /// ``LayoutAttribute/rightMargin``, one member of a set.
    public static let rightMargin = ConstraintAttributes(rawValue: 1 << 13)
    /// ``LayoutAttribute/topMargin``, one member of a set.
    public static let topMargin = ConstraintAttributes(rawValue: 1 << 14)
    /// ``LayoutAttribute/bottomMargin``, one member of a set.
    public static let bottomMargin = ConstraintAttributes(rawValue: 1 << 15)
    /// ``LayoutAttribute/leadingMargin``, one member of a set.
    public static let leadingMargin = ConstraintAttributes(rawValue: 1 << 16)
    /// ``LayoutAttribute/trailingMargin``, one member of a set.
    public static let trailingMargin = ConstraintAttributes(rawValue: 1 << 17)
    /// ``LayoutAttribute/centerXWithinMargins``, one member of a set.
    public static let centerXWithinMargins = ConstraintAttributes(rawValue: 1 << 18)
    /// ``LayoutAttribute/centerYWithinMargins``, one member of a set.
    public static let centerYWithinMargins = ConstraintAttributes(rawValue: 1 << 19)

    /// Top, left, bottom and right.
    public static let edges: ConstraintAttributes = [.horizontalEdges, .verticalEdges]
    /// Left and right.
    public static let horizontalEdges: ConstraintAttributes = [.left, .right]
    /// Top and bottom.
    public static let verticalEdges: ConstraintAttributes = [.top, .bottom]
    /// Top, leading, bottom and trailing.
    public static let directionalEdges: ConstraintAttributes = [.directionalHorizontalEdges, .verticalEdges]
    /// Leading and trailing.
    public static let directionalHorizontalEdges: ConstraintAttributes = [.leading, .trailing]
    /// Top and bottom (SnapKit's name for the directional pair).
    public static let directionalVerticalEdges: ConstraintAttributes = [.top, .bottom]
    /// Width and height.
    public static let size: ConstraintAttributes = [.width, .height]
    /// Both centres.
    public static let center: ConstraintAttributes = [.centerX, .centerY]
    /// The four margins.
    public static let margins: ConstraintAttributes = [.leftMargin, .topMargin, .rightMargin, .bottomMargin]
    /// Top, leading, bottom and trailing margins.
    public static let directionalMargins: ConstraintAttributes = [
        .leadingMargin, .topMargin, .trailingMargin, .bottomMargin,
    ]
    /// Both centres of the margins.
    public static let centerWithinMargins: ConstraintAttributes = [
        .centerXWithinMargins, .centerYWithinMargins,
    ]

    private static let order: [(ConstraintAttributes, LayoutAttribute)] = [
        (.left, .left), (.top, .top), (.right, .right), (.bottom, .bottom), (.leading, .leading),
        (.trailing, .trailing), (.width, .width), (.height, .height), (.centerX, .centerX),
        (.centerY, .centerY), (.lastBaseline, .lastBaseline), (.firstBaseline, .firstBaseline),
        (.leftMargin, .leftMargin), (.rightMargin, .rightMargin), (.topMargin, .topMargin),
        (.bottomMargin, .bottomMargin), (.leadingMargin, .leadingMargin), (.trailingMargin, .trailingMargin),
        (.centerXWithinMargins, .centerXWithinMargins), (.centerYWithinMargins, .centerYWithinMargins),
    ]

    /// The single attributes, in a fixed order (left, top, right, bottom, leading, …).
    public var layoutAttributes: [LayoutAttribute] {
        Self.order.compactMap { contains($0.0) ? $0.1 : nil }
    }

    /// Each edge or centre with its margin counterpart, for relating edges to margins.
    static func marginCounterpart(of attribute: LayoutAttribute) -> LayoutAttribute? {
        switch attribute {
        case .left: .leftMargin
        case .right: .rightMargin
        case .top: .topMargin
        case .bottom: .bottomMargin
        case .leading: .leadingMargin
        case .trailing: .trailingMargin
        case .centerX: .centerXWithinMargins
        case .centerY: .centerYWithinMargins
        default: nil
        }
    }

    /// `top.left`, as the DSL names it.
    var name: String {
        let names = layoutAttributes.map(\.description)
        return names.isEmpty ? "none" : names.joined(separator: ".")
    }
}
