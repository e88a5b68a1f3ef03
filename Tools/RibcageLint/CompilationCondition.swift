import SwiftDiagnostics
import SwiftIfConfig
import SwiftParser
import SwiftSyntax

/// The condition of an `#if` branch, such as `canImport(Darwin) || os(Linux)`, kept as a value
/// so that one scan of a file serves every build it is checked against.
package indirect enum CompilationCondition: Sendable, Equatable, CustomStringConvertible {
    /// `true` or `false`.
    case literal(Bool)
    /// A custom flag (`DEBUG`, a `-D` define, an enabled package trait) or a `$Feature` check.
    case flag(String)
    /// A platform check with its argument: `os(Linux)`, `canImport(Darwin)`,
    /// `compiler(>=6.1)`, `arch(arm64)`, `hasFeature(Embedded)`.
    case check(String, argument: String)
    /// `!condition`.
    case not(CompilationCondition)
    /// `left && right`.
    case and(CompilationCondition, CompilationCondition)
    /// `left || right`.
    case or(CompilationCondition, CompilationCondition)
    /// Text that is not a condition Swift can read; it evaluates to "unknown".
    case unreadable(String)

    /// The condition as Swift would spell it.
    package var description: String {
        switch self {
        case .literal(let value): "\(value)"
        case .flag(let name): name
        case .check(let name, let argument): "\(name)(\(argument))"
        case .not(let inner): "!\(inner.parenthesized)"
        case .and(let left, let right): "\(left.parenthesized) && \(right.parenthesized)"
        case .or(let left, let right): "\(left.parenthesized) || \(right.parenthesized)"
        case .unreadable(let text): text
        }
    }

    private var parenthesized: String {
        switch self {
        case .and, .or: "(\(description))"
        default: description
        }
    }

    /// Every module named by a `canImport` in the condition.
    package var canImportModules: [String] {
        switch self {
        case .check("canImport", let argument):
            // `canImport(Glibc.Unistd, _version: 1)` uses the module `Glibc`; `` `Foo` `` is Foo.
            [String(argument.prefix { $0 != "," && $0 != "." && $0 != " " }.filter { $0 != "`" })]
        case .not(let inner): inner.canImportModules
        case .and(let left, let right), .or(let left, let right):
            left.canImportModules + right.canImportModules
        default: []
        }
    }

    /// The conjunction of `conditions`; `true` for none.
    package static func all(_ conditions: [CompilationCondition]) -> CompilationCondition {
        guard var result = conditions.first else { return .literal(true) }
        for condition in conditions.dropFirst() { result = .and(result, condition) }
        return result
    }

    /// Evaluates the condition for a build, in three values: `nil` when it cannot be known from
    /// outside the compiler (`hasFeature`, a check the configuration cannot answer, text that is
    /// no condition).
    ///
    /// Each check is SwiftIfConfig's to judge, against `build`; only `!`, `&&` and `||` are
    /// combined here, because SwiftIfConfig has two values and lint needs the third: an import
    /// under a condition nobody outside the compiler can know must still be checked.
    package func evaluate(in build: BuildConditions) -> Bool? {
        switch self {
        case .literal(let value):
            return value
        case .check(let name, let argument):
            // A `where` would bind to the last pattern of a list only: the version test is here.
            let asksTheVersion = ["compiler", "swift", "_compiler_version"].contains(name)
            if asksTheVersion && build.compilerVersionComponents.isEmpty { return nil }
            // 128-bit atomics depend on the target's CPU features, which lint does not model.
            if name == "_hasAtomicBitWidth", !["_8", "_16", "_32", "_64"].contains(argument) { return nil }
            return Self.evaluateCheck(description, in: build)
        case .flag:
            return Self.evaluateCheck(description, in: build)
        case .not(let inner):
            return inner.evaluate(in: build).map { !$0 }
        case .and(let left, let right):
            let (l, r) = (left.evaluate(in: build), right.evaluate(in: build))
            if l == false || r == false { return false }
            return l == true && r == true ? true : nil
        case .or(let left, let right):
            let (l, r) = (left.evaluate(in: build), right.evaluate(in: build))
            if l == true || r == true { return true }
            return l == false && r == false ? false : nil
        case .unreadable:
            return nil
        }
    }

    /// One flag or check, as SwiftIfConfig evaluates it; `nil` when the configuration could not
    /// answer or SwiftIfConfig does not know the check.
    private static func evaluateCheck(_ text: String, in configuration: some BuildConfiguration) -> Bool? {
        guard let expression = Self.conditions(in: "#if \(text)\n#endif\n").first else { return nil }
        let (state, _, diagnostics) = IfConfigRegionState.evaluating(expression, in: configuration)
        guard !diagnostics.contains(where: { $0.diagMessage.severity == .error }) else { return nil }
        return state == .active
    }

    /// The condition written in `text`, as an `#if` would read it: `os(Linux) && !DEBUG`.
    package static func parse(_ text: String) -> CompilationCondition {
        guard let expression = conditions(in: "#if \(text)\n#endif\n").first else {
            return .unreadable(text)
        }
        return CompilationCondition(expression)
    }

    private static func conditions(in source: String) -> [ExprSyntax] {
        Parser.parse(source: source).statements.compactMap {
            $0.item.as(IfConfigDeclSyntax.self)?.clauses.first?.condition
        }
    }
}

extension CompilationCondition {
    /// Reads an `#if` or `#elseif` clause's condition from SwiftParser's tree. The parser leaves
    /// `&&` and `||` as a flat sequence; they are grouped here by Swift's precedence (`||` looser
    /// than `&&`). A condition with a syntax error, or of a shape no `#if` accepts, is
    /// ``unreadable(_:)``: a guess would decide what lint checks.
    package init(_ expression: ExprSyntax) {
        guard !expression.hasError, let condition = Self.read(expression) else {
            self = .unreadable(expression.trimmedDescription)
            return
        }
        self = condition
    }

    private static func read(_ expression: ExprSyntax) -> CompilationCondition? {
        if let literal = expression.as(BooleanLiteralExprSyntax.self) {
            return .literal(literal.literal.tokenKind == .keyword(.true))
        }
        if let name = expression.as(DeclReferenceExprSyntax.self), name.argumentNames == nil {
            return .flag(name.baseName.text)
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return read(prefix.expression).map { .not($0) }
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1,
            let only = tuple.elements.first, only.label == nil
        {
            return read(only.expression)
        }
        if let call = expression.as(FunctionCallExprSyntax.self),
            let name = call.calledExpression.as(DeclReferenceExprSyntax.self),
            call.trailingClosure == nil
        {
            return .check(name.baseName.text, argument: argumentText(call.arguments))
        }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            return read(sequence: Array(sequence.elements))
        }
        if let infix = expression.as(InfixOperatorExprSyntax.self),
            let op = infix.operator.as(BinaryOperatorExprSyntax.self)
        {
            return combine(read(infix.leftOperand), op.operator.text, read(infix.rightOperand))
        }
        return nil
    }

    /// A check's argument as Swift spells it, from its tokens: `>=6.1`, `Foundation, _version: 1`.
    /// (`trimmedDescription` would rebuild the node without its outer trivia, which cost a
    /// fifth of the whole scan.)
    private static func argumentText(_ arguments: LabeledExprListSyntax) -> String {
        var text = ""
        for token in arguments.tokens(viewMode: .sourceAccurate) {
            if text.hasSuffix(",") || text.hasSuffix(":") { text += " " }
            text += token.text
        }
        return text
    }

    /// `a && b || c`: operands at even places, `&&` or `||` at odd ones.
    private static func read(sequence elements: [ExprSyntax]) -> CompilationCondition? {
        guard elements.count % 2 == 1 else { return nil }
        var operands: [CompilationCondition] = []
        var operators: [String] = []
        for (index, element) in elements.enumerated() {
            if index.isMultiple(of: 2) {
                guard let operand = read(element) else { return nil }
                operands.append(operand)
            } else {
                guard let op = element.as(BinaryOperatorExprSyntax.self)?.operator.text,
                    op == "&&" || op == "||"
                else { return nil }
                operators.append(op)
            }
        }
        // `&&` first, then `||`, each left to right.
        var disjuncts: [CompilationCondition] = [operands[0]]
        for (op, operand) in zip(operators, operands.dropFirst()) {
            if op == "&&", let last = disjuncts.popLast() {
                disjuncts.append(.and(last, operand))
            } else {
                disjuncts.append(operand)
            }
        }
        return disjuncts.dropFirst().reduce(disjuncts[0]) { .or($0, $1) }
    }

    private static func combine(
        _ left: CompilationCondition?, _ op: String, _ right: CompilationCondition?
    ) -> CompilationCondition? {
        guard let left, let right else { return nil }
        switch op {
        case "&&": return .and(left, right)
        case "||": return .or(left, right)
        default: return nil
        }
    }
}
