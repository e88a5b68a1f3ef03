extension Tmux {
    /// What each cell of a `capture-pane -p -e` capture shows: its character and the SGR state
    /// it was printed in, each row padded to `columns` with blanks. Two captures of the same
    /// cells are equal wherever tmux put its escape sequences (it resets the colours before
    /// blanks an app wrote, not before cells nobody wrote, and carries them across lines).
    package static func cells(ofStyledCapture capture: String, columns: Int) -> [[String]] {
        var foreground = ""
        var background = ""
        var attributes: Set<Int> = []
        func apply(_ codes: [Int]) {
            var index = 0
            while index < codes.count {
                let code = codes[index]
                switch code {
                case 0:
                    foreground = ""
                    background = ""
                    attributes = []
                case 1...9: attributes.insert(code)
                case 22:
                    attributes.remove(1)
                    attributes.remove(2)
                case 23...29: attributes.remove(code - 20)
                case 30...37, 90...97: foreground = "\(code)"
                case 39: foreground = ""
                case 40...47, 100...107: background = "\(code)"
                case 49: background = ""
                case 38, 48:
                    let rest = codes.dropFirst(index + 1)
                    let count = rest.first == 5 ? 2 : 4
                    let value = rest.prefix(count).map(String.init).joined(separator: ";")
                    if code == 38 { foreground = value } else { background = value }
                    index += count
                default: break
                }
                index += 1
            }
        }
        var rows: [[String]] = []
        for line in capture.split(separator: "\n", omittingEmptySubsequences: false) {
            let characters = Array(line)
            var row: [String] = []
            var index = 0
            while index < characters.count {
                guard characters[index] == "\u{1B}" else {
                    row.append("\(characters[index])|\(foreground)|\(background)|\(attributes.sorted())")
                    index += 1
                    continue
                }
                var end = index + 2
                while end < characters.count, !characters[end].isLetter { end += 1 }
                if end < characters.count, characters[end] == "m" {
                    apply(
                        String(characters[min(index + 2, end)..<end])
                            .split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 })
                }
                index = end + 1
            }
            while row.count < columns { row.append(" |||[]") }
            rows.append(row)
        }
        return rows
    }
}
