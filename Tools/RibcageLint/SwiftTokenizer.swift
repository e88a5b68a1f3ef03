/// A token of Swift source, as much of the language as finding imports and reading `#if`
/// conditions needs.
package struct SwiftToken: Sendable, Equatable {
    /// What a token is.
    package enum Kind: Sendable, Equatable {
        /// A name or keyword: `import`, `NIOCore`, `$Macros`; a backticked name keeps its
        /// backticks.
        case identifier
        /// An attribute's name with its `@`: `@testable`, `@_spi`.
        case attribute
        /// A number or version: `5`, `6.1`, `5.9.2`.
        case number
        /// A compiler directive with its `#`: `#if`, `#elseif`, `#else`, `#endif`, `#expect`.
        case directive
        /// Punctuation or an operator: `(`, `;`, `&&`, `>=`, `!`.
        case punctuation
        /// A string or regex literal, whose text is left out: it stands in the token stream so
        /// that what comes after it is read in context.
        case literal
    }

    /// What the token is.
    package var kind: Kind
    package var text: String
    /// Its line, from 1.
    package var line: Int
}

/// Splits Swift source into tokens, skipping comments (nested block comments too), string
/// literals (single-line, multi-line and raw, with interpolations) and `#/…/#` regex literals,
/// so that nothing inside them can pass for code.
package enum SwiftTokenizer {
    private static let twoCharacterOperators: Set<String> = ["&&", "||", ">=", "<=", "==", "!=", "->"]

    /// The tokens of `source`, in order.
    package static func tokens(in source: String) -> [SwiftToken] {
        var lexer = Lexer(characters: Array(source.unicodeScalars))
        return lexer.run()
    }

    private struct Lexer {
        let characters: [Unicode.Scalar]
        var index = 0
        var line = 1
        var tokens: [SwiftToken] = []

        init(characters: [Unicode.Scalar]) {
            self.characters = characters
        }

        func peek(_ offset: Int) -> Unicode.Scalar? {
            index + offset < characters.count ? characters[index + offset] : nil
        }

        mutating func run() -> [SwiftToken] {
            while index < characters.count {
                let character = characters[index]
                if character == "\n" {
                    line += 1
                    index += 1
                } else if character.properties.isWhitespace {
                    index += 1
                } else if character == "/" && peek(1) == "/" {
                    while index < characters.count && characters[index] != "\n" { index += 1 }
                } else if character == "/" && peek(1) == "*" {
                    skipBlockComment()
                } else if character == "#" || character == "\"" {
                    lexHashOrString()
                } else if character == "@" {
                    index += 1
                    let name = readName()
                    append(.attribute, "@" + name)
                } else if character == "`" {
                    lexBacktickedName()
                } else if isNameStart(character) {
                    append(.identifier, readName())
                } else if character.properties.numericType != nil && character.isASCII {
                    lexNumber()
                } else {
                    lexPunctuation()
                }
            }
            return tokens
        }

        mutating func append(_ kind: SwiftToken.Kind, _ text: String) {
            tokens.append(SwiftToken(kind: kind, text: text, line: line))
        }

        func isNameStart(_ character: Unicode.Scalar) -> Bool {
            character == "_" || character == "$" || character.properties.isAlphabetic
        }

        func isNameContinuation(_ character: Unicode.Scalar) -> Bool {
            isNameStart(character) || character.properties.numericType != nil
                || character.properties.generalCategory == .nonspacingMark
        }

        mutating func readName() -> String {
            var text = ""
            while let next = peek(0), isNameContinuation(next) {
                text.unicodeScalars.append(next)
                index += 1
            }
            return text
        }

        mutating func lexBacktickedName() {
            let start = index
            index += 1
            while let next = peek(0), next != "`", next != "\n" { index += 1 }
            if peek(0) == "`" { index += 1 }
            var text = ""
            text.unicodeScalars.append(contentsOf: characters[start..<index])
            append(.identifier, text)
        }

        mutating func lexNumber() {
            var text = ""
            while let next = peek(0),
                next.properties.numericType != nil || next == "_"
                    || (next == "." && peek(1)?.properties.numericType != nil)
                    || (next.properties.isAlphabetic && next.isASCII)  // 0x1F, 1e9
            {
                text.unicodeScalars.append(next)
                index += 1
            }
            append(.number, text)
        }

        mutating func lexPunctuation() {
            if let next = peek(1) {
                var pair = ""
                pair.unicodeScalars.append(characters[index])
                pair.unicodeScalars.append(next)
                if SwiftTokenizer.twoCharacterOperators.contains(pair) {
                    append(.punctuation, pair)
                    index += 2
                    return
                }
            }
            append(.punctuation, String(characters[index]))
            index += 1
        }

        mutating func skipBlockComment() {
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
        }

        /// A raw string opens with `#…#"`, a string with `"`, an extended regex with `#…#/`;
        /// otherwise `#` starts a directive such as `#if`.
        mutating func lexHashOrString() {
            var hashes = 0
            while peek(hashes) == "#" { hashes += 1 }
            if peek(hashes) == "\"" {
                append(.literal, "\"…\"")
                index += hashes
                skipStringLiteral(hashes: hashes)
            } else if hashes > 0 && peek(hashes) == "/" {
                append(.literal, "#/…/#")
                skipRegexLiteral(hashes: hashes)
            } else if hashes == 1, let next = peek(1), isNameStart(next) {
                index += 1
                append(.directive, "#" + readName())
            } else {
                append(.punctuation, "#")
                index += 1
            }
        }

        /// Skips `#/…/#`, which may span lines when extended.
        mutating func skipRegexLiteral(hashes: Int) {
            index += hashes + 1
            while index < characters.count {
                if characters[index] == "\\" {
                    index += 2
                    continue
                }
                if characters[index] == "\n" { line += 1 }
                if characters[index] == "/" && (1...hashes).allSatisfy({ peek($0) == "#" }) {
                    index += 1 + hashes
                    return
                }
                index += 1
            }
        }

        /// Skips a string literal whose opening quote is at `index` (after its `#`s), including
        /// interpolations `\(…)`, which may hold strings of their own.
        mutating func skipStringLiteral(hashes: Int) {
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
                        if peek(0) == "\n" { line += 1 }
                        index += 1
                    }
                    continue
                }
                if characters[index] == "\n" {
                    line += 1
                    // A single-line literal cannot cross a line; stop rather than eat the file.
                    if quote == 1 {
                        index += 1
                        return
                    }
                }
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
        mutating func skipInterpolation() {
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
                case "#":
                    var hashes = 0
                    while peek(hashes) == "#" { hashes += 1 }
                    if peek(hashes) == "\"" {
                        index += hashes
                        skipStringLiteral(hashes: hashes)
                    } else {
                        index += 1
                    }
                case "\n":
                    line += 1
                    index += 1
                default:
                    index += 1
                }
            }
        }
    }
}
