import Foundation
import Layout

/// What a terminal can show: how many colours, whether it takes UTF-8 (box drawing, symbols,
/// wide characters) or only ASCII, and whether it draws pictures itself.
///
/// ```swift
/// let capabilities = TerminalCapabilities(environment: ProcessInfo.processInfo.environment)
/// // LANG=C → isUnicode == false: borders are drawn with + - |
/// ```
///
/// The environment tells the colours and the locale. Whether the terminal speaks kitty's
/// graphics protocol is asked of the terminal itself (``KittyGraphicsProbe``), which
/// ``TerminalApplication`` does when it starts.
public struct TerminalCapabilities: Sendable, Hashable {
    /// The colours the terminal shows.
    public var colorDepth: ColorDepth
    /// Whether the locale's character set is UTF-8; when not, frames are written in ASCII
    /// (``GlyphFallback``).
    public var isUnicode: Bool
    /// Whether the terminal draws pictures sent with kitty's graphics protocol; when not,
    /// ``ImageView`` draws them with half blocks. Off until the terminal says so.
    public var kittyGraphics: Bool
    /// The size of one cell in pixels, when the terminal reports it (`TIOCGWINSZ`): pictures
    /// sent with the graphics protocol are scaled to the pixels their cells cover. `nil` assumes
    /// ``defaultCellPixelSize``.
    public var cellPixelSize: Size?

    /// What a cell is taken to measure when the terminal does not say: 10 by 20 pixels.
    public static let defaultCellPixelSize = Size(width: 10, height: 20)

    /// Capabilities given outright, for tests and drivers.
    public init(
        colorDepth: ColorDepth = .trueColor, isUnicode: Bool = true, kittyGraphics: Bool = false,
        cellPixelSize: Size? = nil
    ) {
        self.colorDepth = colorDepth
        self.isUnicode = isUnicode
        self.kittyGraphics = kittyGraphics
        self.cellPixelSize = cellPixelSize
    }

    /// What the environment says: the colour depth as ``ColorDepth/init(environment:)`` reads
    /// it, and UTF-8 when the locale that applies (`LC_ALL`, else `LC_CTYPE`, else `LANG`) names
    /// UTF-8. An unset or `C`/`POSIX` locale is ASCII, as the C library takes it.
    public init(environment: [String: String]) {
        colorDepth = ColorDepth(environment: environment)
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        let normalized = (locale ?? "").lowercased().replacingOccurrences(of: "-", with: "")
        isUnicode = normalized.contains("utf8")
        kittyGraphics = false
        cellPixelSize = nil
    }
}

/// ASCII stand-ins for the characters HeadlessUI draws, for terminals whose locale is not
/// UTF-8: box drawing becomes `+ - |`, arrows and marks their nearest letters, and anything
/// else outside ASCII a `?` per cell, so that columns stay where they are.
public enum GlyphFallback {
    /// What to write for `character` on an ASCII terminal: the character itself when it is
    /// ASCII, else its stand-in, as many cells wide as the character.
    public static func ascii(for character: Character) -> String {
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
