/// How much a constraint matters: required, or a level and a weight.
///
/// The solver minimises the errors of the constraints that are not required level by level,
/// from the highest down: no number of errors on a lower level can outweigh one error on a
/// higher level. Within a level, errors add up, each times its constraint's weight, as in kiwi.
///
/// kiwi's strengths all live on level 0, where their composed value is the weight: `required`
/// beats any combination of `strong`, which beats `medium`, which beats `weak` — up to 1,000 of
/// each. A system built only from them solves exactly as kiwi solves it.
///
/// ```swift
/// let almostStrong = Strength.create(0, 900, 0)      // level 0, between medium and strong
/// let heavyWeak = Strength.create(0, 0, 1, 5)        // level 0, five times weak
/// let screen = Strength(level: 1_000)                // beats every constraint on lower levels
/// ```
///
/// Levels keep the arithmetic small: a layout whose priorities became weights from 1 to 10⁹ in
/// one sum loses the weak ones in rounding (a reduced cost of −3·10⁻⁸ on a 10⁹ scale reads as a
/// real improvement), while every level's own costs stay near 1.
public struct Strength: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The weight within the level: kiwi's composed value on level 0.
    public let value: Double
    /// The level; ``required`` is on level `+infinity`.
    public let level: Double

    /// A strength on kiwi's level 0 with this composed value.
    public init(_ value: Double) {
        self.value = value
        level = 0
    }

    /// A strength on `level`, beating every strength on a lower level, with `weight` among the
    /// errors of its own level.
    public init(level: Double, weight: Double = 1) {
        value = weight
        self.level = level
    }

    /// `clamp(a·w)·10⁶ + clamp(b·w)·10³ + clamp(c·w)`, each part clamped to 0…1,000: kiwi's
    /// `strength::create`, on level 0.
    public static func create(_ a: Double, _ b: Double, _ c: Double, _ w: Double = 1) -> Strength {
        func clamp(_ part: Double) -> Double { Swift.max(0, Swift.min(1_000, part)) }
        return Strength(clamp(a * w) * 1_000_000 + clamp(b * w) * 1_000 + clamp(c * w))
    }

    /// Must hold: kiwi's 1,001,001,000, above every level.
    public static let required = Strength(level: .infinity, weight: 1_001_001_000)
    /// 1,000,000 on level 0.
    public static let strong = create(1, 0, 0)
    /// 1,000 on level 0.
    public static let medium = create(0, 1, 0)
    /// 1 on level 0.
    public static let weak = create(0, 0, 1)

    /// Whether the constraint must hold.
    public var isRequired: Bool { level == .infinity }

    /// This strength as the solver uses it: on level 0, a weight of kiwi's `required` or more
    /// is required and a negative weight is 0, as kiwi clips; on other levels a negative weight
    /// is 0.
    public var clipped: Strength {
        if isRequired { return .required }
        if level == 0 && value >= Self.required.value { return .required }
        return Strength(level: level, weight: Swift.max(0, value))
    }

    /// Orders by level, then by weight.
    public static func < (lhs: Strength, rhs: Strength) -> Bool {
        lhs.level != rhs.level ? lhs.level < rhs.level : lhs.value < rhs.value
    }

    /// `required`, `strong`, `medium`, `weak`, the weight, or `level 750` (`level 750 × 2`).
    public var description: String {
        if isRequired { return "required" }
        guard level == 0 else {
            return "level \(formatted(level))" + (value == 1 ? "" : " × \(formatted(value))")
        }
        switch value {
        case Self.strong.value: return "strong"
        case Self.medium.value: return "medium"
        case Self.weak.value: return "weak"
        default: return "\(value)"
        }
    }
}
