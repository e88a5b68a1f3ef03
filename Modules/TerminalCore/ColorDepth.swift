/// How many colours a terminal shows, from what its environment says.
///
/// ```swift
/// ColorDepth(environment: ["COLORTERM": "truecolor"])     // .trueColor
/// ColorDepth(environment: ["TERM": "xterm-256color"])     // .ansi256
/// ColorDepth(environment: ["NO_COLOR": "1", …])           // .none
/// ```
///
/// A frame writer lowers each ``Color`` to the depth: a 24-bit colour to the nearest of the
/// 256-colour palette's cube or grey ramp, a palette colour to the nearest of the sixteen ANSI
/// colours, and at ``none`` it drops colours but keeps bold, dim, underline and inverse, which
/// no-color.org allows and which selection needs.
public enum ColorDepth: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// No colours (`NO_COLOR`, or a terminal without them).
    case none
    /// The sixteen ANSI colours.
    case ansi16
    /// The 256-colour palette.
    case ansi256
    /// 24-bit colour.
    case trueColor

    /// The depth the environment gives: none when `NO_COLOR` is set and not empty or `TERM` is
    /// `dumb`; 24-bit when `COLORTERM` is `truecolor` or `24bit`; 256 when `TERM` says
    /// `256color`; otherwise sixteen.
    public init(environment: [String: String]) {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
            self = .none
            return
        }
        let term = environment["TERM"] ?? ""
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if term == "dumb" {
            self = .none
        } else if colorTerm == "truecolor" || colorTerm == "24bit" || term.hasSuffix("-direct") {
            self = .trueColor
        } else if term.contains("256color") {
            self = .ansi256
        } else {
            self = .ansi16
        }
    }

    /// Orders depths from ``none`` to ``trueColor``.
    public static func < (lhs: ColorDepth, rhs: ColorDepth) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `color` as the terminal can show it, or `nil` for no colour.
    package func lower(_ color: Color) -> Color? {
        switch (self, color) {
        case (.none, _): return nil
        case (.trueColor, _): return color
        case (.ansi256, .rgb(let red, let green, let blue)):
            return .palette(ColorDepth.paletteIndex(red: red, green: green, blue: blue))
        case (.ansi256, _): return color
        case (.ansi16, .rgb(let red, let green, let blue)): return ColorDepth.nearestANSI(red, green, blue)
        case (.ansi16, .palette(let index)):
            let (red, green, blue) = ColorDepth.rgb(ofPaletteIndex: index)
            return ColorDepth.nearestANSI(red, green, blue)
        case (.ansi16, _): return color
        }
    }

    /// The nearest entry of the palette's 6×6×6 cube (16–231) or grey ramp (232–255).
    static func paletteIndex(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        let levels: [Int] = [0, 95, 135, 175, 215, 255]
        func cubeLevel(_ value: UInt8) -> Int {
            let value = Int(value)
            return value < 48 ? 0 : value < 115 ? 1 : (value - 35) / 40
        }
        let (r, g, b) = (cubeLevel(red), cubeLevel(green), cubeLevel(blue))
        let cube = (levels[r], levels[g], levels[b])
        let average = (Int(red) + Int(green) + Int(blue)) / 3
        let greyStep = average > 238 ? 23 : max(0, (average - 3) / 10)
        let grey = 8 + greyStep * 10
        func distance(_ other: (Int, Int, Int)) -> Int {
            let dr = Int(red) - other.0
            let dg = Int(green) - other.1
            let db = Int(blue) - other.2
            return dr * dr + dg * dg + db * db
        }
        if distance((grey, grey, grey)) < distance(cube) { return UInt8(232 + greyStep) }
        return UInt8(16 + 36 * r + 6 * g + b)
    }

    /// The colour of a palette entry, as xterm defines the palette.
    static func rgb(ofPaletteIndex index: UInt8) -> (UInt8, UInt8, UInt8) {
        switch index {
        case 0..<16: return xterm16[Int(index)]
        case 16..<232:
            let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
            let cube = Int(index) - 16
            return (levels[cube / 36], levels[cube / 6 % 6], levels[cube % 6])
        default:
            let grey = UInt8(8 + (Int(index) - 232) * 10)
            return (grey, grey, grey)
        }
    }

    /// xterm's values of the palette's first sixteen entries.
    private static let xterm16: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
        (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
        (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// The colours every 16-colour terminal has, as HeadlessUI names them, with xterm's values.
    private static let ansiColors: [(color: Color, rgb: (UInt8, UInt8, UInt8))] = [
        (.black, xterm16[0]), (.red, xterm16[1]), (.green, xterm16[2]), (.yellow, xterm16[3]),
        (.blue, xterm16[4]), (.magenta, xterm16[5]), (.cyan, xterm16[6]), (.white, xterm16[7]),
        (.gray, xterm16[8]),
    ]

    /// The nearest of the eight ANSI colours and grey.
    static func nearestANSI(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Color {
        var best = ansiColors[0].color
        var bestDistance = Int.max
        for (color, value) in ansiColors {
            let dr = Int(red) - Int(value.0)
            let dg = Int(green) - Int(value.1)
            let db = Int(blue) - Int(value.2)
            let distance = dr * dr + dg * dg + db * db
            if distance < bestDistance {
                best = color
                bestDistance = distance
            }
        }
        return best
    }
}
