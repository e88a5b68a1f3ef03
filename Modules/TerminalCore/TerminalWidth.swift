/// How many terminal cells text takes: East Asian wide and fullwidth characters (Hangul, kana,
/// CJK ideographs, most emoji) take two, combining marks and other zero-width scalars none, and
/// everything else one — what `wcwidth(3)` computes, but per grapheme cluster so that a base
/// letter with its accents counts once.
extension Character {
    /// The number of terminal cells the character takes: 0, 1 or 2.
    public var terminalWidth: Int {
        let scalars = unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count == 1 { return TerminalWidth.width(of: first) }
        // An emoji made to present as emoji by VS16 (U+FE0F), a flag, or a ZWJ sequence is
        // drawn as one wide glyph.
        if first.properties.isEmoji,
            scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D })
                || first.properties.isEmojiPresentation
        {
            return 2
        }
        let base = TerminalWidth.width(of: first)
        if base > 0 { return base }
        // A cluster that starts with a zero-width scalar (a lone combining mark, say) takes the
        // width of what it carries, if anything.
        return scalars.dropFirst().map(TerminalWidth.width(of:)).max() ?? 0
    }
}

extension StringProtocol {
    /// The number of terminal cells the text takes on one line.
    public var terminalWidth: Int {
        var total = 0
        for character in self { total += character.terminalWidth }
        return total
    }
}

/// The width rules, by Unicode scalar.
enum TerminalWidth {
    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 ? 0 : 1 }
        if value < 0xA0 { return 0 }  // C1 controls and DEL
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        // Hangul medial vowels and final consonants join the preceding initial into one syllable.
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        if scalar.properties.isEmojiPresentation || isWide(value) { return 2 }
        return 1
    }

    /// East Asian Width W or F (Unicode 15) outside the emoji blocks, in ranges sorted by their
    /// start. Emoji are wide exactly when they have `Emoji_Presentation`, which Swift knows.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1AFF0...0x1B2FF,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
        0x1F200...0x1F251, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func isWide(_ value: UInt32) -> Bool {
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
