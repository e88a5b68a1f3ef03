import TerminalCore

/// The text of a one-line input and the keys that edit it, as a shell's line editor: what a
/// ``TextField`` with focus, or a command prompt, runs its key presses through.
///
/// ```swift
/// var editor = LineEditor()
/// editor.insert("buy milk")
/// editor.handle(KeyPress("w", modifiers: .control))   // deletes "milk"
/// editor.handle(KeyPress(.enter))                      // .submitted("buy "), kept in history
/// ```
///
/// | Keys | Edit |
/// |------|------|
/// | Left, Right, Ctrl-B, Ctrl-F | move by a character |
/// | Alt-B, Alt-F, Ctrl-Left, Ctrl-Right | move by a word |
/// | Home, End, Ctrl-A, Ctrl-E | to the start, to the end |
/// | Backspace, Delete, Ctrl-D | delete before, at the cursor |
/// | Ctrl-W, Alt-Backspace | delete the word before the cursor |
/// | Ctrl-K, Ctrl-U | delete to the end, to the start |
/// | Up, Down | earlier and later lines of the history |
/// | Tab | asks for completion (``Outcome/completionRequested``) |
/// | Enter | submits the line |
///
/// Only printable characters are inserted: control characters and escape sequences never
/// become part of the text, and a paste's line breaks become spaces.
package struct LineEditor: Sendable, Hashable {
    /// What a key press did.
    package enum Outcome: Sendable, Hashable {
        /// The text changed.
        case edited
        /// Only the cursor moved.
        case moved
        /// Enter: the line, which is also added to the history.
        case submitted(String)
        /// Tab: the owner should offer completions (``complete(with:)``).
        case completionRequested
        /// Not an editing key; the key goes on to the next responder.
        case ignored
    }

    private var characters: [Character] = []
    /// The cursor's position in ``text``, in characters from the start.
    package private(set) var cursor = 0
    /// Earlier submitted lines, oldest first.
    package private(set) var history: [String] = []
    /// The most lines the history keeps.
    package var historyLimit = 500
    private var historyIndex: Int?
    private var draft: [Character] = []

    /// An editor holding `text`, with the cursor at its end.
    package init(text: String = "") {
        self.text = text
    }

    /// The text. Setting it puts the cursor at the end.
    package var text: String {
        get { String(characters) }
        set {
            characters = Array(Self.printable(newValue))
            cursor = characters.count
            historyIndex = nil
        }
    }

    /// The text before the cursor, what completion looks at.
    package var textBeforeCursor: String { String(characters[..<cursor]) }

    /// Inserts `text` at the cursor, without its control characters; line breaks and tabs
    /// become spaces.
    package mutating func insert(_ text: String) {
        let inserted = Self.printable(text)
        characters.insert(contentsOf: inserted, at: cursor)
        cursor += inserted.count
    }

    /// Applies a key press and says what it did.
    @discardableResult
    package mutating func handle(_ press: KeyPress) -> Outcome {
        let control = press.modifiers.contains(.control)
        let alt = press.modifiers.contains(.alt)
        switch press.key {
        case .character(let character) where control:
            switch character {
            case "a": return move(to: 0)
            case "e": return move(to: characters.count)
            case "b": return move(to: cursor - 1)
            case "f": return move(to: cursor + 1)
            case "d": return delete(cursor..<min(characters.count, cursor + 1))
            case "k": return delete(cursor..<characters.count)
            case "u": return delete(0..<cursor)
            case "w": return delete(previousWordStart()..<cursor)
            default: return .ignored
            }
        case .character(let character) where alt:
            switch character {
            case "b": return move(to: previousWordStart())
            case "f": return move(to: nextWordEnd())
            case "d": return delete(cursor..<nextWordEnd())
            default: return .ignored
            }
        case .character(let character):
            guard Self.isPrintable(character) else { return .ignored }
            characters.insert(character, at: cursor)
            cursor += 1
            return .edited
        case .left: return move(to: control || alt ? previousWordStart() : cursor - 1)
        case .right: return move(to: control || alt ? nextWordEnd() : cursor + 1)
        case .home: return move(to: 0)
        case .end: return move(to: characters.count)
        case .backspace:
            return alt || control ? delete(previousWordStart()..<cursor) : delete(max(0, cursor - 1)..<cursor)
        case .delete: return delete(cursor..<min(characters.count, cursor + 1))
        case .up: return recall(earlier: true)
        case .down: return recall(earlier: false)
        case .tab where press.modifiers.isEmpty: return .completionRequested
        case .enter:
            let line = text
            if line.contains(where: { $0 != " " }), history.last != line {
                history.append(line)
                if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
            }
            characters = []
            cursor = 0
            historyIndex = nil
            return .submitted(line)
        default: return .ignored
        }
    }

    /// Completes the word before the cursor from `candidates` (whole words that start with
    /// it): one candidate replaces the word and adds a space; several extend it to their common
    /// prefix. Returns whether the text changed.
    @discardableResult
    package mutating func complete(with candidates: [String]) -> Bool {
        guard let first = candidates.first else { return false }
        let start = previousWordStart()
        let word = String(characters[start..<cursor])
        var prefix = Array(first)
        for candidate in candidates.dropFirst() {
            prefix = Array(zip(prefix, candidate).prefix { $0 == $1 }.map(\.0))
        }
        var replacement = Array(Self.printable(String(prefix)))
        if candidates.count == 1 { replacement.append(" ") }
        guard replacement.count > word.count || candidates.count == 1, String(replacement) != word else {
            return false
        }
        characters.replaceSubrange(start..<cursor, with: replacement)
        cursor = start + replacement.count
        return true
    }

    /// The part of the text to show in `width` cells and the cursor's column in it: the text
    /// scrolls sideways so that the cursor stays visible, as in a shell.
    package func visibleText(width: Int) -> (text: String, cursorColumn: Int) {
        guard width > 0 else { return ("", 0) }
        var start = 0
        var beforeCursor = characters[0..<cursor].reduce(0) { $0 + $1.terminalWidth }
        // Keep a cell free for the cursor after the last character.
        while beforeCursor > width - 1, start < cursor {
            beforeCursor -= characters[start].terminalWidth
            start += 1
        }
        var shown = ""
        var used = 0
        for character in characters[start...] {
            let cells = character.terminalWidth
            guard used + cells <= width else { break }
            shown.append(character)
            used += cells
        }
        return (shown, beforeCursor)
    }

    // MARK: Helpers

    private mutating func move(to position: Int) -> Outcome {
        let clamped = min(max(0, position), characters.count)
        guard clamped != cursor else { return .moved }
        cursor = clamped
        return .moved
    }

    private mutating func delete(_ range: Range<Int>) -> Outcome {
        guard !range.isEmpty else { return .moved }
        characters.removeSubrange(range)
        cursor = range.lowerBound
        return .edited
    }

    private func previousWordStart() -> Int {
        var index = cursor
        while index > 0, characters[index - 1] == " " { index -= 1 }
        while index > 0, characters[index - 1] != " " { index -= 1 }
        return index
    }

    private func nextWordEnd() -> Int {
        var index = cursor
        while index < characters.count, characters[index] == " " { index += 1 }
        while index < characters.count, characters[index] != " " { index += 1 }
        return index
    }

    private mutating func recall(earlier: Bool) -> Outcome {
        guard !history.isEmpty else { return .ignored }
        let current = historyIndex ?? history.count
        let next = earlier ? current - 1 : current + 1
        guard next >= 0, next <= history.count else { return .moved }
        if historyIndex == nil { draft = characters }
        historyIndex = next == history.count ? nil : next
        characters = next == history.count ? draft : Array(history[next])
        cursor = characters.count
        return .edited
    }

    private static func isPrintable(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy { scalar in
            let value = scalar.value
            return value >= 0x20 && value != 0x7F && !(0x80..<0xA0).contains(value)
        }
    }

    /// `text` without control characters; line breaks and tabs become spaces.
    private static func printable(_ text: String) -> [Character] {
        var result: [Character] = []
        for character in text {
            if character == "\n" || character == "\r\n" || character == "\r" || character == "\t" {
                result.append(" ")
            } else if isPrintable(character) {
                result.append(character)
            }
        }
        return result
    }
}
