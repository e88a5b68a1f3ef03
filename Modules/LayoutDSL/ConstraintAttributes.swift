import Layout

/// The attributes a DSL chain names, as SnapKit's `ConstraintAttributes`: single ones combine
/// (`make.top.left`), and composites stand for several (`edges`, `size`, `center`…).
struct ConstraintAttributes: OptionSet, Sendable, Hashable {
    /// The bits.
    let rawValue: UInt32

    /// Creates attributes from bits.
    init(rawValue: UInt32) { self.rawValue = rawValue }

    /// None: relate to an item as a whole.
    static let none: ConstraintAttributes = []
    /// ``LayoutAttribute/left``, one member of a set.
    static let left = ConstraintAttributes(rawValue: 1 << 0)
    /// ``LayoutAttribute/top``, one member of a set.
    static let top = ConstraintAttributes(rawValue: 1 << 1)
    /// ``LayoutAttribute/right``, one member of a set.
    static let right = ConstraintAttributes(rawValue: 1 << 2)
    /// ``LayoutAttribute/bottom``, one member of a set.
    static let bottom = ConstraintAttributes(rawValue: 1 << 3)
    /// ``LayoutAttribute/leading``, one member of a set.
    static let leading = ConstraintAttributes(rawValue: 1 << 4)
    /// ``LayoutAttribute/trailing``, one member of a set.
    static let trailing = ConstraintAttributes(rawValue: 1 << 5)
    /// ``LayoutAttribute/width``, one member of a set.
    static let width = ConstraintAttributes(rawValue: 1 << 6)
    /// ``LayoutAttribute/height``, one member of a set.
    static let height = ConstraintAttributes(rawValue: 1 << 7)
    /// ``LayoutAttribute/centerX``, one member of a set.
    static let centerX = ConstraintAttributes(rawValue: 1 << 8)
    /// ``LayoutAttribute/centerY``, one member of a set.
    static let centerY = ConstraintAttributes(rawValue: 1 << 9)
    /// ``LayoutAttribute/lastBaseline``, one member of a set.
    static let lastBaseline = ConstraintAttributes(rawValue: 1 << 10)
    /// ``LayoutAttribute/firstBaseline``, one member of a set.
    static let firstBaseline = ConstraintAttributes(rawValue: 1 << 11)
    /// ``LayoutAttribute/leftMargin``, one member of a set.
    static let leftMargin = ConstraintAttributes(rawValue: 1 << 12)
    /// ``LayoutAttribute/rightMargin``, one member of a set.
    static let rightMargin = ConstraintAttributes(rawValue: 1 << 13)
    /// ``LayoutAttribute/topMargin``, one member of a set.
    static let topMargin = ConstraintAttributes(rawValue: 1 << 14)
    /// ``LayoutAttribute/bottomMargin``, one member of a set.
    static let bottomMargin = ConstraintAttributes(rawValue: 1 << 15)
    /// ``LayoutAttribute/leadingMargin``, one member of a set.
    static let leadingMargin = ConstraintAttributes(rawValue: 1 << 16)
    /// ``LayoutAttribute/trailingMargin``, one member of a set.
    static let trailingMargin = ConstraintAttributes(rawValue: 1 << 17)
    /// ``LayoutAttribute/centerXWithinMargins``, one member of a set.
    static let centerXWithinMargins = ConstraintAttributes(rawValue: 1 << 18)
    /// ``LayoutAttribute/centerYWithinMargins``, one member of a set.
    static let centerYWithinMargins = ConstraintAttributes(rawValue: 1 << 19)

    /// Top, left, bottom and right.
    static let edges: ConstraintAttributes = [.horizontalEdges, .verticalEdges]
    /// Left and right.
    static let horizontalEdges: ConstraintAttributes = [.left, .right]
    /// Top and bottom.
    static let verticalEdges: ConstraintAttributes = [.top, .bottom]
    /// Top, leading, bottom and trailing.
    static let directionalEdges: ConstraintAttributes = [.directionalHorizontalEdges, .verticalEdges]
    /// Leading and trailing.
    static let directionalHorizontalEdges: ConstraintAttributes = [.leading, .trailing]
    /// Top and bottom (SnapKit's name for the directional pair).
    static let directionalVerticalEdges: ConstraintAttributes = [.top, .bottom]
    /// Width and height.
    static let size: ConstraintAttributes = [.width, .height]
    /// Both centres.
    static let center: ConstraintAttributes = [.centerX, .centerY]
    /// The four margins.
    static let margins: ConstraintAttributes = [.leftMargin, .topMargin, .rightMargin, .bottomMargin]
    /// Top, leading, bottom and trailing margins.
    static let directionalMargins: ConstraintAttributes = [
        .leadingMargin, .topMargin, .trailingMargin, .bottomMargin,
    ]
    /// Both centres of the margins.
    static let centerWithinMargins: ConstraintAttributes = [
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
    var layoutAttributes: [LayoutAttribute] {
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
