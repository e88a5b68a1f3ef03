/// Reads the names a clang module map declares at its top level, which are modules Swift code
/// can import (`SwiftGlibc`, `CoreFoundation`, `_Builtin_stdint`).
///
/// A module map is not Swift, so SwiftParser does not read it; its grammar needs only names,
/// braces, string literals and C-style comments to be told apart here.
package enum ModuleMap {
    /// `module SwiftGlibc [system] {` gives `SwiftGlibc`, and `extern module X "other.modulemap"`
    /// gives `X`, defined in that other file; submodules and `module *` are left out.
    package static func topLevelModules(in text: String) -> [String] {
        let tokens = Self.tokens(in: text)
        var names: [String] = []
        var depth = 0
        for (index, token) in tokens.enumerated() {
            switch token {
            case .punctuation("{"): depth += 1
            case .punctuation("}"): depth -= 1
            case .name("module") where depth == 0 && index + 1 < tokens.count:
                if case .name(let next) = tokens[index + 1], next != "extern" { names.append(next) }
            default: break
            }
        }
        return names
    }

    enum Token: Equatable {
        case name(String)
        case punctuation(Character)
        /// A string literal, its text left out: a path or a header name, never a module.
        case string
    }

    /// The tokens of a module map, comments (`//`, `/* */`) skipped.
    static func tokens(in text: String) -> [Token] {
        let characters = Array(text)
        var tokens: [Token] = []
        var index = 0
        func isNameCharacter(_ character: Character) -> Bool {
            character == "_" || character.isLetter || character.isNumber
        }
        while index < characters.count {
            let character = characters[index]
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            if character.isWhitespace {
                index += 1
            } else if character == "/", next == "/" {
                while index < characters.count, !characters[index].isNewline { index += 1 }
            } else if character == "/", next == "*" {
                index += 2
                while index < characters.count,
                    !(characters[index] == "*" && index + 1 < characters.count
                        && characters[index + 1] == "/")
                {
                    index += 1
                }
                index += 2
            } else if character == "\"" {
                index += 1
                while index < characters.count, characters[index] != "\"" {
                    index += characters[index] == "\\" ? 2 : 1
                }
                index += 1
                tokens.append(.string)
            } else if isNameCharacter(character) {
                let start = index
                while index < characters.count, isNameCharacter(characters[index]) { index += 1 }
                tokens.append(.name(String(characters[start..<index])))
            } else {
                tokens.append(.punctuation(character))
                index += 1
            }
        }
        return tokens
    }
}
