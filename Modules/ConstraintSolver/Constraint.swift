/// How the two sides of a constraint relate.
public enum Relation: Sendable, CustomStringConvertible {
    /// `<=`
    case lessThanOrEqual
    /// `==`
    case equal
    /// `>=`
    case greaterThanOrEqual

    /// The operator.
    public var description: String {
        switch self {
        case .lessThanOrEqual: "<="
        case .equal: "=="
        case .greaterThanOrEqual: ">="
        }
    }
}

/// A linear relation that the solver keeps as well as its strength allows:
/// `expression <relation> 0`. Constraints are compared by identity, as in kiwi.
public final class Constraint: CustomStringConvertible {
    /// The left side minus the right side, reduced.
    public let expression: Expression
    /// The relation to zero.
    public let relation: Relation
    /// How much it matters, clamped to 0…``Strength/required``.
    public let strength: Strength
    /// A label for diagnostics.
    public var label: String?

    /// Creates `expression <relation> 0`.
    public init(
        _ expression: Expression, _ relation: Relation, strength: Strength = .required, label: String? = nil
    ) {
        self.expression = expression.reduced()
        self.relation = relation
        self.strength = strength.clipped
        self.label = label
    }

    /// The same constraint with another strength (a new constraint; this one is unchanged).
    public func withStrength(_ strength: Strength) -> Constraint {
        Constraint(expression, relation, strength: strength, label: label)
    }

    /// `label: 2 * x + y - 10 >= 0 | strong`.
    public var description: String {
        (label.map { "\($0): " } ?? "") + "\(expression) \(relation) 0 | \(strength)"
    }
}

/// `lhs == rhs`, required.
public func == (lhs: some ExpressionConvertible, rhs: some ExpressionConvertible) -> Constraint {
    Constraint(lhs - rhs, .equal)
}

/// `lhs <= rhs`, required.
public func <= (lhs: some ExpressionConvertible, rhs: some ExpressionConvertible) -> Constraint {
    Constraint(lhs - rhs, .lessThanOrEqual)
}

/// `lhs >= rhs`, required.
public func >= (lhs: some ExpressionConvertible, rhs: some ExpressionConvertible) -> Constraint {
    Constraint(lhs - rhs, .greaterThanOrEqual)
}

/// The constraint with `strength`, as in kiwi's Python binding: `(x >= 10) | .strong`. The
/// parentheses are needed: `|` binds tighter than `==`.
public func | (lhs: Constraint, rhs: Strength) -> Constraint {
    lhs.withStrength(rhs)
}
