import HeadlessUI
import TerminalCore

/// ASCII stand-ins for the characters HeadlessUI draws, for terminals whose locale is not
/// UTF-8: box drawing becomes `+ - |`, arrows and marks their nearest letters, and anything
/// else outside ASCII a `?` per cell, so that columns stay where they are.
package enum GlyphFallback {
    /// What to write for `character` on an ASCII terminal: the character itself when it is
    /// ASCII, else its stand-in, as many cells wide as the character.
    package static func ascii(for character: Character) -> String {
        if character.isASCII { return String(character) }
        if let single = table[character] { return String(single) }
        if let scalar = character.unicodeScalars.first {
            switch scalar.value {
            case 0x2500...0x257F: return boxDrawing(scalar)
            case 0x2580...0x259F: return "#"  // block elements: half blocks, shades
            default: break
            }
        }
        return String(repeating: "?", count: max(1, character.terminalWidth))
    }

    private static func boxDrawing(_ scalar: Unicode.Scalar) -> String {
        let name = scalar.properties.name ?? ""
        let horizontal = name.contains("HORIZONTAL")
        let vertical = name.contains("VERTICAL")
        if horizontal && !vertical { return name.contains("DOUBLE") ? "=" : "-" }
        if vertical && !horizontal { return "|" }
        return "+"
    }

    private static let table: [Character: Character] = [
        "‹": "<", "›": ">", "«": "<", "»": ">", "←": "<", "→": ">", "↑": "^", "↓": "v",
        "✓": "x", "✔": "x", "✗": "x", "•": "*", "·": ".", "…": "~", "┃": "|", "━": "-",
        "▀": "#", "▄": "#", "█": "#", "▲": "^", "▼": "v", "►": ">", "◄": "<", "×": "x",
        "–": "-", "—": "-", "‘": "'", "’": "'", "“": "\"", "”": "\"",
    ]
}
