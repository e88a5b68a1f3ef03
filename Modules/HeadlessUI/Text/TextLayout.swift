import TerminalCore

/// Line breaking and truncation measured in terminal cells.
enum TextLayout {
    static let ellipsis: Character = "…"

    /// The lines `text` takes in `width` cells: paragraphs split at newlines and wrapped as
    /// `wrapping` says (at words, or between any characters), at most `maximumLines` of them (0:
    /// no limit). When lines are cut off, the last one kept is cut as `truncation` says: `…` at
    /// its end for `.byTruncatingTail`, nothing for the wrapping modes and `.byClipping`.
    static func lines(
        of text: String, width: Int, maximumLines: Int, wrapping: LineBreakMode = .byWordWrapping,
        truncation: LineBreakMode = .byTruncatingTail
    ) -> [String] {
        guard width > 0, !text.isEmpty else { return [] }
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false)
        if maximumLines == 1 {
            return [truncate(paragraphs.joined(separator: " "), to: width, mode: truncation)]
        }
        var lines: [String] = []
        for paragraph in paragraphs {
            lines +=
                wrapping == .byCharWrapping
                ? wrapCharacters(paragraph, width: width) : wrapWords(paragraph, width: width)
            if maximumLines > 0, lines.count > maximumLines { break }
        }
        guard maximumLines > 0, lines.count > maximumLines else { return lines }
        var kept = Array(lines.prefix(maximumLines))
        switch truncation {
        case .byTruncatingTail, .byTruncatingHead, .byTruncatingMiddle:
            // The cut line shows that more follows, whatever the single-line mode.
            let last = kept[maximumLines - 1]
            kept[maximumLines - 1] =
                last.terminalWidth < width
                ? last + String(ellipsis) : prefix(of: last, width: width - 1) + String(ellipsis)
        default:
            break
        }
        return kept
    }

    /// `text` on one line of `width` cells.
    static func truncate(_ text: String, to width: Int, mode: LineBreakMode) -> String {
        guard width > 0 else { return "" }
        guard text.terminalWidth > width else { return text }
        switch mode {
        case .byClipping, .byWordWrapping, .byCharWrapping:
            return prefix(of: text, width: width)
        case .byTruncatingTail:
            return prefix(of: text, width: width - 1) + String(ellipsis)
        case .byTruncatingHead:
            return String(ellipsis) + suffix(of: text, width: width - 1)
        case .byTruncatingMiddle:
            let tail = (width - 1) / 2
            return prefix(of: text, width: width - 1 - tail) + String(ellipsis)
                + suffix(of: text, width: tail)
        }
    }

    /// The longest start of `text` that fits in `width` cells.
    static func prefix<S: StringProtocol>(of text: S, width: Int) -> String {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let cells = text[index].terminalWidth
            if used + cells > width { break }
            used += cells
            end = text.index(after: index)
        }
        return String(text[..<end])
    }

    /// The longest end of `text` that fits in `width` cells.
    static func suffix<S: StringProtocol>(of text: S, width: Int) -> String {
        var used = 0
        var start = text.endIndex
        while start > text.startIndex {
            let previous = text.index(before: start)
            let cells = text[previous].terminalWidth
            if used + cells > width { break }
            used += cells
            start = previous
        }
        return String(text[start...])
    }

    private static func wrapWords(_ paragraph: Substring, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
            let wordWidth = word.terminalWidth
            if lineWidth > 0, lineWidth + 1 + wordWidth <= width {
                line += " " + word
                lineWidth += 1 + wordWidth
                continue
            }
            if lineWidth > 0 { lines.append(line) }
            if wordWidth <= width {
                line = String(word)
                lineWidth = wordWidth
            } else {
                var pieces = wrapCharacters(word, width: width)
                let last = pieces.removeLast()
                lines += pieces
                line = last
                lineWidth = last.terminalWidth
            }
        }
        lines.append(line)
        return lines
    }

    private static func wrapCharacters(_ text: Substring, width: Int) -> [String] {
        var lines: [String] = []
        var rest = text
        while rest.terminalWidth > width {
            var piece = prefix(of: rest, width: width)
            // A wide character in a one-cell line still has to go somewhere.
            if piece.isEmpty, let first = rest.first { piece = String(first) }
            lines.append(piece)
            rest = rest.dropFirst(piece.count)
        }
        lines.append(String(rest))
        return lines
    }
}
