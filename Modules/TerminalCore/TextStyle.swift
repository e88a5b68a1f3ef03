/// A terminal colour: one of the sixteen ANSI colours, an index into the 256-colour palette, or
/// a 24-bit colour. A frame writer lowers it to what the terminal shows (``ColorDepth``).
public enum Color: Sendable, Hashable {
    /// ANSI black (30).
    case black
    /// ANSI red (31).
    case red
    /// ANSI green (32).
    case green
    /// ANSI yellow (33).
    case yellow
    /// ANSI blue (34).
    case blue
    /// ANSI magenta (35).
    case magenta
    /// ANSI cyan (36).
    case cyan
    /// ANSI white (37).
    case white
    /// ANSI bright black, often shown as grey (90).
    case gray
    /// An entry of the 256-colour palette (`38;5;n`).
    case palette(UInt8)
    /// A 24-bit colour (`38;2;r;g;b`), for pictures.
    case rgb(UInt8, UInt8, UInt8)

    /// The SGR parameters that select the colour as foreground, or as background.
    func sgr(background: Bool) -> String {
        let base = background ? 40 : 30
        switch self {
        case .rgb(let red, let green, let blue): return "\(base + 8);2;\(red);\(green);\(blue)"
        case .black: return "\(base)"
        case .red: return "\(base + 1)"
        case .green: return "\(base + 2)"
        case .yellow: return "\(base + 3)"
        case .blue: return "\(base + 4)"
        case .magenta: return "\(base + 5)"
        case .cyan: return "\(base + 6)"
        case .white: return "\(base + 7)"
        case .gray: return "\(base + 60)"
        case .palette(let index): return "\(base + 8);5;\(index)"
        }
    }
}

/// How a cell's character is drawn: colours and attributes, as ANSI SGR codes express them.
/// Plain-text output ignores it.
public struct TextStyle: Sendable, Hashable {
    /// The character's colour, or `nil` for the terminal's default.
    public var foreground: Color?
    /// The cell's colour, or `nil` for the terminal's default.
    public var background: Color?
    /// Bold (SGR 1).
    public var isBold: Bool
    /// Dim, for disabled controls and placeholders (SGR 2).
    public var isDim: Bool
    /// Underlined (SGR 4).
    public var isUnderlined: Bool
    /// Foreground and background swapped, for selection (SGR 7).
    public var isInverse: Bool

    /// Creates a style; every part is off by default.
    public init(
        foreground: Color? = nil, background: Color? = nil, isBold: Bool = false, isDim: Bool = false,
        isUnderlined: Bool = false, isInverse: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.isBold = isBold
        self.isDim = isDim
        self.isUnderlined = isUnderlined
        self.isInverse = isInverse
    }

    /// The terminal's default look.
    public static let plain = TextStyle()

    /// The escape sequence that switches a terminal from the default look to this style.
    var escapeSequence: String { escapeSequence(depth: .trueColor) }

    /// The escape sequence that switches a terminal from the default look to this style, with
    /// its colours lowered to `depth` (none at ``ColorDepth/none``: attributes stay).
    package func escapeSequence(depth: ColorDepth) -> String {
        var parameters: [String] = []
        if isBold { parameters.append("1") }
        if isDim { parameters.append("2") }
        if isUnderlined { parameters.append("4") }
        if isInverse { parameters.append("7") }
        if let foreground = foreground.flatMap(depth.lower) {
            parameters.append(foreground.sgr(background: false))
        }
        if let background = background.flatMap(depth.lower) {
            parameters.append(background.sgr(background: true))
        }
        return parameters.isEmpty ? "" : "\u{1B}[" + parameters.joined(separator: ";") + "m"
    }
}
