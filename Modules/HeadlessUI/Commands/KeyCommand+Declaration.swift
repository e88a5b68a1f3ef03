import TerminalCore

extension KeyCommand {
    /// What a command is, apart from what it does: its title, keys, typed form and help. A
    /// screen declares each of its commands once, as a `static let`, and makes its
    /// ``ViewController/keyCommands`` from them with ``KeyCommand/init(_:action:)``; the
    /// declarations can then be read where no screen is on display, as an app's help does for
    /// every screen.
    ///
    /// ```swift
    /// enum ListCommands {
    ///     static let new = KeyCommand.Declaration(
    ///         "New", keys: [KeyPress("n")], typed: "new", help: "Add a todo")
    ///     static let all = [new]
    /// }
    ///
    /// override var keyCommands: [KeyCommand] {
    ///     [KeyCommand(ListCommands.new) { [weak self] _ in self?.startNewTodo() ?? .handled }]
    /// }
    /// ```
    public struct Declaration: Sendable, Hashable {
        /// The short name the help bar shows next to the key: `New`.
        public var title: String
        /// The keys that run the command; the help bar shows the first, the help text all.
        public var keys: [KeyPress]
        /// The word that runs it at a prompt (lowercase), if it can be typed.
        public var name: String?
        /// How it is typed, with its arguments: `edit N TITLE`. The name when `nil`.
        public var usage: String?
        /// A sentence for the help text: what the command does.
        public var help: String
        /// Whether the help bar shows it; the help text lists every command.
        public var showsInHelpBar: Bool

        /// Declares a command.
        ///
        /// - Parameters:
        ///   - title: The short name for the help bar.
        ///   - keys: The key presses that run it.
        ///   - typed: The word that runs it at a prompt; kept lowercase.
        ///   - usage: How it is typed with its arguments, for the help text.
        ///   - help: What it does, for the help text.
        ///   - showsInHelpBar: Whether the help bar lists it (it needs a key for that).
        public init(
            _ title: String, keys: [KeyPress] = [], typed: String? = nil, usage: String? = nil, help: String,
            showsInHelpBar: Bool = true
        ) {
            self.title = title
            self.keys = keys
            name = typed?.lowercased()
            self.usage = usage
            self.help = help
            self.showsInHelpBar = showsInHelpBar
        }

        /// Every key, as the help text writes them: `Space/x`, `Right/Down/l/j`. Three or more
        /// keys in a row that differ only by the next digit or letter are written as a range,
        /// `Alt-1..Alt-9`. When one of the keys is `/` itself, they are joined by ` or `
        /// instead (`/ or F3`), so that the slash always reads as a key.
        package var keysText: String {
            var names: [String] = []
            var start = keys.startIndex
            while start < keys.endIndex {
                var end = start + 1
                while end < keys.endIndex, keys[end - 1].precedes(keys[end]) { end += 1 }
                if end - start >= 3 {
                    names.append("\(keys[start])..\(keys[end - 1])")
                } else {
                    names += keys[start..<end].map(\.description)
                }
                start = end
            }
            let hasSlash = keys.contains { $0.key == .character("/") }
            return names.joined(separator: hasSlash ? " or " : "/")
        }
    }
}

extension KeyPress {
    /// Whether `next` is this press with the next digit or letter (`Alt-1`, `Alt-2`): a run of
    /// them reads as a range in the help.
    fileprivate func precedes(_ next: KeyPress) -> Bool {
        guard modifiers == next.modifiers, case .character(let character) = key,
            case .character(let following) = next.key, let value = character.asciiValue,
            let nextValue = following.asciiValue, nextValue == value + 1
        else { return false }
        return (character.isNumber && following.isNumber) || (character.isLetter && following.isLetter)
    }
}
