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
        /// The keys that run the command; the first is the one the help shows.
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
    }

}
