/// How much a constraint matters, as kiwi composes it: a single number where `required` beats
/// any combination of `strong`, which beats `medium`, which beats `weak` — up to 1,000 of each.
///
/// ```swift
/// let almostStrong = Strength.create(0, 900, 0)      // between medium and strong
/// let heavyWeak = Strength.create(0, 0, 1, 5)        // five times weak
/// ```
public struct Strength: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The composed value.
    public let value: Double

    /// A strength with this composed value.
    public init(_ value: Double) {
        self.value = value
    }

    /// `clamp(a·w)·10⁶ + clamp(b·w)·10³ + clamp(c·w)`, each part clamped to 0…1,000: kiwi's
    /// `strength::create`.
    public static func create(_ a: Double, _ b: Double, _ c: Double, _ w: Double = 1) -> Strength {
        func clamp(_ part: Double) -> Double { Swift.max(0, Swift.min(1_000, part)) }
        return Strength(clamp(a * w) * 1_000_000 + clamp(b * w) * 1_000 + clamp(c * w))
    }

    /// Must hold: 1,001,001,000.
    public static let required = create(1_000, 1_000, 1_000)
    /// 1,000,000.
    public static let strong = create(1, 0, 0)
    /// 1,000.
    public static let medium = create(0, 1, 0)
    /// 1.
    public static let weak = create(0, 0, 1)

    /// This strength clamped to 0…``required``, as the solver uses it.
    public var clipped: Strength { Strength(Swift.max(0, Swift.min(Self.required.value, value))) }

    /// Orders by value.
    public static func < (lhs: Strength, rhs: Strength) -> Bool { lhs.value < rhs.value }

    /// `required`, `strong`, `medium`, `weak`, or the number.
    public var description: String {
        switch value {
        case Self.required.value: "required"
        case Self.strong.value: "strong"
        case Self.medium.value: "medium"
        case Self.weak.value: "weak"
        default: "\(value)"
        }
    }
}
