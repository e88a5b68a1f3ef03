/// One module a source file refers to by import.
public struct ImportReference: Sendable, Equatable {
    /// How the module is referred to.
    public enum Form: String, Sendable, Codable {
        /// `import X`, `@testable import X`, `@_exported import X`, `import struct X.Y`.
        case `import`
        /// `#if canImport(X)`: a use, but a conditional one.
        case canImport
    }

    /// The module: the first component of an import path.
    public var module: String
    /// The line, from 1.
    public var line: Int
    /// How it is referred to.
    public var form: Form
}

/// Finds the imports of Swift source with a real tokenizer: comments (nested block comments
/// too) and string literals (single-line, multi-line and raw) are skipped, so an `import` in a
/// comment or a string is never counted — the false positives Tuist's scanner has (#6706, #7281,
/// #8455).
public enum ImportScanner {
    private struct Token {
        var text: String
        var line: Int
    }

    private static let declarationKinds: Set<String> = [
        "struct", "class", "enum", "protocol", "typealias", "func", "let", "var", "actor",
    ]

    /// Every import and `canImport` in `source`, in order.
    public static func references(in source: String) -> [ImportReference] {
        let tokens = tokenize(source)
        var references: [ImportReference] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.text == "import", isStatementStart(tokens, index) {
                var next = index + 1
                if next < tokens.count, declarationKinds.contains(tokens[next].text) { next += 1 }
                if next < tokens.count, isIdentifier(tokens[next].text) {
                    references.append(
                        ImportReference(module: tokens[next].text, line: token.line, form: .import))
                }
                index = next
            } else if token.text == "canImport", index + 2 < tokens.count, tokens[index + 1].text == "(",
                isIdentifier(tokens[index + 2].text)
            {
                references.append(
                    ImportReference(module: tokens[index + 2].text, line: token.line, form: .canImport))
                index += 3
            } else {
                index += 1
            }
        }
        return references
    }

    /// `import` starts a statement when it begins a line (after attributes such as `@testable`)
    /// or follows a `;`.
    private static func isStatementStart(_ tokens: [Token], _ index: Int) -> Bool {
        var previous = index - 1
        while previous >= 0, tokens[previous].text.hasPrefix("@"), tokens[previous].line == tokens[index].line
        {
            previous -= 1
        }
        guard previous >= 0 else { return true }
        return tokens[previous].line < tokens[index].line || tokens[previous].text == ";"
    }

    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.first else { return false }
        return first == "_" || first.isLetter
    }

    private static func tokenize(_ source: String) -> [Token] {
        let characters = Array(source.unicodeScalars)
        var tokens: [Token] = []
        var line = 1
        var index = 0
        func peek(_ offset: Int) -> Unicode.Scalar? {
            index + offset < characters.count ? characters[index + offset] : nil
        }
        /// Skips a string literal whose opening quote is at `index` (after its `#`s), including
        /// interpolations `\(…)`, which may hold strings of their own.
        func skipStringLiteral(hashes: Int) {
            let quote = peek(1) == "\"" && peek(2) == "\"" ? 3 : 1
            index += quote
            while index < characters.count {
                let isEscape = characters[index] == "\\" && (0..<hashes).allSatisfy { peek(1 + $0) == "#" }
                if isEscape {
                    index += 1 + hashes
                    if peek(0) == "(" {
                        index += 1
                        skipInterpolation()
                    } else {
                        index += 1
                    }
                    continue
                }
                if characters[index] == "\n" { line += 1 }
                let closes =
                    (0..<quote).allSatisfy { peek($0) == "\"" }
                    && (0..<hashes).allSatisfy { peek(quote + $0) == "#" }
                if closes {
                    index += quote + hashes
                    return
                }
                index += 1
            }
        }
        /// Skips to the `)` that closes an interpolation, past nested parentheses and strings.
        func skipInterpolation() {
            var depth = 1
            while index < characters.count && depth > 0 {
                switch characters[index] {
                case "(":
                    depth += 1
                    index += 1
                case ")":
                    depth -= 1
                    index += 1
                case "\"":
                    skipStringLiteral(hashes: 0)
                case "\n":
                    line += 1
                    index += 1
                default:
                    index += 1
                }
            }
        }
        while index < characters.count {
            let character = characters[index]
            if character == "\n" {
                line += 1
                index += 1
            } else if character == "/" && peek(1) == "/" {
                while index < characters.count && characters[index] != "\n" { index += 1 }
            } else if character == "/" && peek(1) == "*" {
                var depth = 0
                repeat {
                    if characters[index] == "/" && peek(1) == "*" {
                        depth += 1
                        index += 2
                    } else if characters[index] == "*" && peek(1) == "/" {
                        depth -= 1
                        index += 2
                    } else {
                        if characters[index] == "\n" { line += 1 }
                        index += 1
                    }
                } while depth > 0 && index < characters.count
            } else if character == "#" || character == "\"" {
                // A raw string opens with #…#", a string with ". Otherwise `#` is punctuation.
                var hashes = 0
                while peek(hashes) == "#" { hashes += 1 }
                guard peek(hashes) == "\"" else {
                    tokens.append(Token(text: "#", line: line))
                    index += 1
                    continue
                }
                index += hashes
                skipStringLiteral(hashes: hashes)
            } else if character == "@" || character == "_" || character.properties.isAlphabetic {
                var text = String(character)
                index += 1
                while let next = peek(0),
                    next == "_" || next.properties.isAlphabetic || next.properties.numericType != nil
                {
                    text.unicodeScalars.append(next)
                    index += 1
                }
                tokens.append(Token(text: text, line: line))
            } else if character.properties.isWhitespace {
                index += 1
            } else {
                tokens.append(Token(text: String(character), line: line))
                index += 1
            }
        }
        return tokens
    }
}
