/// One module a source file refers to by import.
package struct ImportReference: Sendable, Equatable {
    /// How the module is referred to.
    package enum Form: String, Sendable, Codable {
        /// An import declaration, in any of its forms: `import X`, `public import X`,
        /// `@_spi(S) @preconcurrency import X`, `import struct X.Y`.
        case `import`
        /// `#if canImport(X)`: a use, but a conditional one.
        case canImport
    }

    /// The module: the first component of an import path.
    package var module: String
    /// The line, from 1.
    package var line: Int
    /// How it is referred to.
    package var form: Form
    /// The attributes written before the import, with their `@`: `@testable`, `@_exported`.
    package var attributes: [String] = []
    /// `public`, `package`, `internal`, `fileprivate` or `private`, when written.
    package var accessLevel: String? = nil
    /// The conditions of the `#if` branches around it; `nil` when there are none.
    package var condition: CompilationCondition? = nil

    /// A reference; the scanner fills in attributes and conditions.
    package init(
        module: String, line: Int, form: Form, attributes: [String] = [], accessLevel: String? = nil,
        condition: CompilationCondition? = nil
    ) {
        self.module = module
        self.line = line
        self.form = form
        self.attributes = attributes
        self.accessLevel = accessLevel
        self.condition = condition
    }
}

/// Finds the imports of Swift source with a real tokenizer (``SwiftTokenizer``): comments and
/// string literals are never mistaken for code — the false positives Tuist's line scanner has
/// (#6706, #7281, #8455) — and every import carries the `#if` conditions it sits under, so a
/// caller can tell an import this platform compiles from one it never sees.
package enum ImportScanner {
    private static let importKinds: Set<String> = [
        "struct", "class", "enum", "protocol", "typealias", "func", "let", "var", "actor",
    ]
    private static let accessLevels: Set<String> = [
        "public", "package", "internal", "fileprivate", "private", "open",
    ]
    /// Tokens after which a new line cannot start a declaration, because the expression goes on.
    private static let continuations: Set<String> = [".", "(", "[", ",", ":", "=", "->", "&&", "||"]

    /// Every import and `canImport` in `source`, in order.
    package static func references(in source: String) -> [ImportReference] {
        let tokens = SwiftTokenizer.tokens(in: source)
        var references: [ImportReference] = []
        var branches = BranchStack()
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            switch (token.kind, token.text) {
            case (.directive, "#if"), (.directive, "#elseif"):
                let end = conditionEnd(tokens, from: index + 1)
                let condition = CompilationCondition.parse(Array(tokens[(index + 1)..<end]))
                if token.text == "#if" { branches.open(condition) } else { branches.elseIf(condition) }
                for module in condition.canImportModules {
                    references.append(
                        ImportReference(
                            module: module, line: token.line, form: .canImport, condition: branches.enclosing)
                    )
                }
                index = end
            case (.directive, "#else"):
                branches.else()
                index += 1
            case (.directive, "#endif"):
                branches.close()
                index += 1
            case (.identifier, "import"):
                if var reference = importDeclaration(tokens, at: index) {
                    reference.condition = branches.current
                    references.append(reference)
                }
                index += 1
            default:
                index += 1
            }
        }
        return references
    }

    /// A condition runs to the end of its line, and on while a parenthesis is open or the line
    /// ends with `&&` or `||`.
    private static func conditionEnd(_ tokens: [SwiftToken], from start: Int) -> Int {
        var index = start
        var depth = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.kind == .directive { break }
            if index > start, token.line > tokens[index - 1].line, depth == 0,
                !["&&", "||", "!"].contains(tokens[index - 1].text)
            {
                break
            }
            if token.text == "(" { depth += 1 }
            if token.text == ")" { depth -= 1 }
            index += 1
        }
        return index
    }

    /// The import declared by the `import` keyword at `index`, or `nil` when the keyword is
    /// something else: an argument label (`f(import: x)`) or a member (`x.import`).
    private static func importDeclaration(_ tokens: [SwiftToken], at index: Int) -> ImportReference? {
        // Walk back over the modifiers and attributes (with their arguments) of the declaration.
        var attributes: [String] = []
        var accessLevel: String?
        var start = index
        while start > 0 {
            let previous = tokens[start - 1]
            if previous.kind == .identifier, accessLevels.contains(previous.text), accessLevel == nil {
                accessLevel = previous.text
                start -= 1
            } else if previous.kind == .attribute {
                attributes.insert(previous.text, at: 0)
                start -= 1
            } else if previous.text == ")", let open = matchingOpen(tokens, before: start - 1), open > 0,
                tokens[open - 1].kind == .attribute
            {
                attributes.insert(tokens[open - 1].text, at: 0)
                start = open - 1
            } else {
                break
            }
        }
        if start > 0 {
            let previous = tokens[start - 1]
            let onEarlierLine = previous.line < tokens[start].line
            let endsStatement = [";", "{", "}"].contains(previous.text)
            guard endsStatement || (onEarlierLine && !continuations.contains(previous.text)) else {
                return nil
            }
        }
        var next = index + 1
        if next < tokens.count, importKinds.contains(tokens[next].text) { next += 1 }
        guard next < tokens.count, tokens[next].kind == .identifier, tokens[next].line == tokens[index].line
        else { return nil }
        let name = tokens[next].text.trimmingCharacters(in: ["`"])
        guard !name.isEmpty else { return nil }
        return ImportReference(
            module: name, line: tokens[index].line, form: .import, attributes: attributes,
            accessLevel: accessLevel)
    }

    /// The index of the `(` that matches the `)` at `close`.
    private static func matchingOpen(_ tokens: [SwiftToken], before close: Int) -> Int? {
        var depth = 0
        var index = close
        while index >= 0 {
            if tokens[index].text == ")" { depth += 1 }
            if tokens[index].text == "(" {
                depth -= 1
                if depth == 0 { return index }
            }
            index -= 1
        }
        return nil
    }
}

/// The `#if` branches the scanner is inside, each as the condition under which it is compiled.
private struct BranchStack {
    private struct Frame {
        /// The conditions of the branches before the current one, which must all be false.
        var earlier: [CompilationCondition]
        /// The condition under which the current branch is compiled, given the frames outside.
        var active: CompilationCondition
    }

    private var frames: [Frame] = []

    /// The conjunction of every open branch's condition, or `nil` outside any `#if`.
    var current: CompilationCondition? {
        frames.isEmpty ? nil : CompilationCondition.all(frames.map(\.active))
    }

    /// The conditions around the innermost `#if`, for the `canImport`s its condition names.
    var enclosing: CompilationCondition? {
        frames.count <= 1 ? nil : CompilationCondition.all(frames.dropLast().map(\.active))
    }

    mutating func open(_ condition: CompilationCondition) {
        frames.append(Frame(earlier: [condition], active: condition))
    }

    mutating func elseIf(_ condition: CompilationCondition) {
        guard var frame = frames.popLast() else { return }
        frame.active = .all(frame.earlier.map { .not($0) } + [condition])
        frame.earlier.append(condition)
        frames.append(frame)
    }

    mutating func `else`() {
        guard var frame = frames.popLast() else { return }
        frame.active = .all(frame.earlier.map { .not($0) })
        frames.append(frame)
    }

    mutating func close() {
        _ = frames.popLast()
    }
}
