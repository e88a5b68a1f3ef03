import ConstraintSolver

/// How much a layout constraint matters, from 1 to 1,000, as `UILayoutPriority` (and SnapKit's
/// `ConstraintPriority`, which is the same type here).
///
/// 1,000 is required. Below that, every priority is a level of its own in the solver (see
/// `Strength`): a constraint at 750 outweighs any number of conflicting constraints at 749 or
/// below, as Auto Layout satisfies higher priorities before lower ones. Constraints of one
/// priority that conflict share the difference, each error counted once.
public struct LayoutPriority: RawRepresentable, Hashable, Sendable, Strideable, CustomStringConvertible,
    ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral
{
    /// The priority, clamped to 0…1,000.
    public let rawValue: Double

    /// Creates a priority, clamped to 0…1,000.
    public init(rawValue: Double) {
        self.rawValue = Swift.min(1_000, Swift.max(0, rawValue))
    }

    /// Creates a priority, clamped to 0…1,000.
    public init(_ value: Double) { self.init(rawValue: value) }

    /// Creates a priority from a literal such as `750`.
    public init(floatLiteral value: Double) { self.init(rawValue: value) }

    /// Creates a priority from a literal such as `750`.
    public init(integerLiteral value: Int) { self.init(rawValue: Double(value)) }

    /// 1,000: must hold.
    public static let required: LayoutPriority = 1_000
    /// 750, UIKit's `defaultHigh` and SnapKit's `high`: compression resistance by default.
    public static let defaultHigh: LayoutPriority = 750
    /// 250, UIKit's `defaultLow` and SnapKit's `low`: content hugging by default.
    public static let defaultLow: LayoutPriority = 250
    /// 50: the level a fitting-size computation uses.
    public static let fittingSizeLevel: LayoutPriority = 50
    /// SnapKit's name for 750.
    public static let high = defaultHigh
    /// SnapKit's name for 500.
    public static let medium: LayoutPriority = 500
    /// SnapKit's name for 250.
    public static let low = defaultLow

    /// Whether the solver must satisfy a constraint at this priority (1,000 and above, as Auto
    /// Layout's): one that cannot be is reported as a conflict, never traded off.
    public var isRequired: Bool { rawValue >= 1_000 }

    /// The solver strength this priority becomes: `Strength.required`, or the level equal to
    /// the priority with a weight of 1.
    package var strength: Strength {
        isRequired ? .required : Strength(level: rawValue)
    }

    /// Orders by value.
    public static func < (lhs: LayoutPriority, rhs: LayoutPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The distance to `other`.
    public func distance(to other: LayoutPriority) -> Double { other.rawValue - rawValue }

    /// The priority `n` points away.
    public func advanced(by n: Double) -> LayoutPriority { LayoutPriority(rawValue: rawValue + n) }

    /// `+` a number of points, as with `UILayoutPriority`: `.defaultHigh + 1`.
    public static func + (lhs: LayoutPriority, rhs: Double) -> LayoutPriority { lhs.advanced(by: rhs) }

    /// `-` a number of points.
    public static func - (lhs: LayoutPriority, rhs: Double) -> LayoutPriority { lhs.advanced(by: -rhs) }

    /// The number, e.g. `750`.
    public var description: String { formatted(rawValue) }
}

/// SnapKit's name for ``LayoutPriority``.
public typealias ConstraintPriority = LayoutPriority
