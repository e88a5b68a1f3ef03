/// A variable times a coefficient.
public struct Term: CustomStringConvertible {
    /// The variable the term multiplies; it may appear in other terms of the same expression.
    public var variable: Variable
    /// What the variable is multiplied by: `2` in `2 * x`, `-1` in `-x`.
    public var coefficient: Double

    /// `coefficient` times `variable`; `Term(x)` is `x` alone.
    public init(_ variable: Variable, _ coefficient: Double = 1) {
        self.variable = variable
        self.coefficient = coefficient
    }

    /// `2 * x`, or `x` for a coefficient of 1.
    public var description: String {
        coefficient == 1 ? "\(variable)" : "\(formatted(coefficient)) * \(variable)"
    }
}

/// A linear expression: a sum of terms plus a constant. Built with operators:
/// `2 * x + y - 10`.
public struct Expression: CustomStringConvertible {
    /// The terms; the same variable may appear more than once until ``reduced()``.
    public var terms: [Term]
    /// The part without a variable: `-10` in `2 * x + y - 10`.
    public var constant: Double

    /// The sum of `terms` plus `constant`; with no arguments, the constant 0.
    public init(_ terms: [Term] = [], constant: Double = 0) {
        self.terms = terms
        self.constant = constant
    }

    /// The expression with each variable once, in order of first appearance.
    public func reduced() -> Expression {
        var order: [ObjectIdentifier] = []
        var sums: [ObjectIdentifier: Term] = [:]
        for term in terms {
            let key = ObjectIdentifier(term.variable)
            if sums[key] == nil { order.append(key) }
            sums[key, default: Term(term.variable, 0)].coefficient += term.coefficient
        }
        return Expression(order.compactMap { sums[$0] }, constant: constant)
    }

    /// The value of the expression with the variables' current values.
    public var value: Double { terms.reduce(constant) { $0 + $1.coefficient * $1.variable.value } }

    /// `2 * x + y - 10`.
    public var description: String {
        var text = terms.enumerated().map { index, term in
            index == 0
                ? term.description
                : (term.coefficient < 0
                    ? "- \(Term(term.variable, -term.coefficient))" : "+ \(term)")
        }.joined(separator: " ")
        if constant != 0 || terms.isEmpty {
            text +=
                text.isEmpty
                ? formatted(constant)
                : (constant < 0 ? " - \(formatted(-constant))" : " + \(formatted(constant))")
        }
        return text
    }
}

/// `number` as descriptions write it: whole numbers without a fraction. `package` so that Layout
/// writes its constraints' numbers as the solver's descriptions do.
package func formatted(_ number: Double) -> String {
    number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
}

// MARK: - Building expressions

/// Anything that is a linear expression: a variable, a term, an expression or a number.
public protocol ExpressionConvertible {
    /// The value as an expression.
    var expression: Expression { get }
}

extension Variable: ExpressionConvertible {
    /// `1 * self`.
    public var expression: Expression { Expression([Term(self)]) }
}

extension Term: ExpressionConvertible {
    /// The term alone.
    public var expression: Expression { Expression([self]) }
}

extension Expression: ExpressionConvertible {
    /// Itself.
    public var expression: Expression { self }
}

extension Double: ExpressionConvertible {
    /// A constant expression.
    public var expression: Expression { Expression(constant: self) }
}

extension Int: ExpressionConvertible {
    /// A constant expression.
    public var expression: Expression { Expression(constant: Double(self)) }
}

/// The sum of two expressions.
public func + (lhs: some ExpressionConvertible, rhs: some ExpressionConvertible) -> Expression {
    let (a, b) = (lhs.expression, rhs.expression)
    return Expression(a.terms + b.terms, constant: a.constant + b.constant)
}

/// The difference of two expressions.
public func - (lhs: some ExpressionConvertible, rhs: some ExpressionConvertible) -> Expression {
    lhs + (-1.0 * rhs)
}

/// The expression negated.
public prefix func - (operand: some ExpressionConvertible) -> Expression {
    -1.0 * operand
}

/// The expression scaled.
public func * (lhs: Double, rhs: some ExpressionConvertible) -> Expression {
    let expression = rhs.expression
    return Expression(
        expression.terms.map { Term($0.variable, $0.coefficient * lhs) }, constant: expression.constant * lhs)
}

/// The expression scaled.
public func * (lhs: some ExpressionConvertible, rhs: Double) -> Expression {
    rhs * lhs
}

/// The expression divided by a number.
public func / (lhs: some ExpressionConvertible, rhs: Double) -> Expression {
    (1 / rhs) * lhs
}
