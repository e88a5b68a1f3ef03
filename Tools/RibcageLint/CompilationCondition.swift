/// The condition of an `#if` branch, such as `canImport(Darwin) || os(Linux)`.
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
    /// Text the reader does not understand; it evaluates to "unknown".
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
            [String(argument.prefix { $0 != "," }.trimmingCharacters(in: .whitespaces))]
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

    /// Evaluates the condition for a build, in three values: `nil` when it cannot be known
    /// from outside the compiler (`hasFeature`, text it cannot read).
    package func evaluate(in build: BuildConditions) -> Bool? {
        switch self {
        case .literal(let value):
            return value
        case .flag(let name):
            return build.flags.contains(name)
        case .check(let name, let argument):
            return build.evaluateCheck(name, argument: argument)
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
}

extension CompilationCondition {
    /// Parses the tokens of an `#if` or `#elseif` condition.
    ///
    /// The grammar is Swift's: `||` binds looser than `&&`, `!` binds tightest, and parentheses
    /// group. Anything else becomes ``unreadable(_:)`` rather than a guess.
    package static func parse(_ tokens: [SwiftToken]) -> CompilationCondition {
        var parser = ConditionParser(tokens: tokens)
        let condition = parser.parseOr()
        guard parser.index == tokens.count, let condition else {
            return .unreadable(tokens.map(\.text).joined(separator: " "))
        }
        return condition
    }
}

private struct ConditionParser {
    let tokens: [SwiftToken]
    var index = 0

    var current: SwiftToken? { index < tokens.count ? tokens[index] : nil }

    mutating func parseOr() -> CompilationCondition? {
        guard var left = parseAnd() else { return nil }
        while current?.text == "||" {
            index += 1
            guard let right = parseAnd() else { return nil }
            left = .or(left, right)
        }
        return left
    }

    mutating func parseAnd() -> CompilationCondition? {
        guard var left = parseUnary() else { return nil }
        while current?.text == "&&" {
            index += 1
            guard let right = parseUnary() else { return nil }
            left = .and(left, right)
        }
        return left
    }

    mutating func parseUnary() -> CompilationCondition? {
        guard let token = current else { return nil }
        if token.text == "!" {
            index += 1
            return parseUnary().map { .not($0) }
        }
        if token.text == "(" {
            index += 1
            let inner = parseOr()
            guard current?.text == ")" else { return nil }
            index += 1
            return inner
        }
        guard token.kind == .identifier else { return nil }
        index += 1
        if token.text == "true" { return .literal(true) }
        if token.text == "false" { return .literal(false) }
        guard current?.text == "(" else { return .flag(token.text) }
        // A check's argument runs to the matching `)`: `>=6.1`, `Darwin`, `Foo, _version: 2`.
        index += 1
        var depth = 1
        var argument: [String] = []
        while let next = current {
            index += 1
            if next.text == "(" { depth += 1 }
            if next.text == ")" {
                depth -= 1
                if depth == 0 { break }
            }
            argument.append(next.text)
        }
        guard depth == 0 else { return nil }
        return .check(token.text, argument: Self.join(argument))
    }

    /// Joins argument tokens the way they are written: `>=6.1`, `Foo, _version: 2`.
    static func join(_ parts: [String]) -> String {
        var text = ""
        for part in parts {
            if part == "," || part == ":" {
                text += part
            } else if text.hasSuffix(",") || text.hasSuffix(":") {
                text += " " + part
            } else {
                text += part
            }
        }
        return text
    }
}
