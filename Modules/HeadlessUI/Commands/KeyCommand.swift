/// A command a view controller offers, declared once: the keys that run it, the word typed at
/// a prompt that runs it, and the text that explains it. The help bar (``HelpBar``) and the
/// help text (``KeyCommand/helpText(for:)``) are made from these declarations, so they never
/// drift from what the app does. It is UIKit's `UIKeyCommand` idea, with a typed form for
/// terminal prompts.
///
/// ```swift
/// override var keyCommands: [KeyCommand] {
///     [
///         KeyCommand("New", keys: [KeyPress("n")], typed: "new", help: "Add a todo") { [weak self] _ in
///             self?.startNewTodo()
///             return .handled
///         },
///         KeyCommand("Rename", typed: "edit", usage: "edit N TITLE", help: "Rename row N") { [weak self] invocation in
///             self?.rename(invocation.arguments) ?? .handled
///         },
///     ]
/// }
/// ```
///
/// Keys go first to the view that has focus (a text field takes the letters typed into it),
/// then to the key commands of the controllers on screen, deepest first (the presented
/// controller, the top of a navigation stack, the selected tab, then their parents). Typed
/// commands take the same way (``Window/perform(_:)``). A deeper controller's command hides a
/// parent's with the same key or name, in the help too.
public struct KeyCommand {
    /// How a command was run.
    public enum Invocation: Sendable, Hashable {
        /// By a key press.
        case key(KeyPress)
        /// By a line typed at a prompt.
        case typed(TerminalCommand)

        /// The words typed after the command's name; none for a key press.
        public var arguments: [String] {
            if case .typed(let command) = self { return command.arguments }
            return []
        }

        /// The typed command, if the command was typed.
        public var typedCommand: TerminalCommand? {
            if case .typed(let command) = self { return command }
            return nil
        }
    }

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
    let action: @MainActor (Invocation) -> CommandResult

    /// Declares a command.
    ///
    /// - Parameters:
    ///   - title: The short name for the help bar.
    ///   - keys: The key presses that run it.
    ///   - typed: The word that runs it at a prompt.
    ///   - usage: How it is typed with its arguments, for the help text.
    ///   - help: What it does, for the help text.
    ///   - showsInHelpBar: Whether the help bar lists it (it needs a key for that).
    ///   - action: Runs the command; return ``CommandResult/failed(_:)`` with a reason when it
    ///     cannot be done.
    public init(
        _ title: String, keys: [KeyPress] = [], typed: String? = nil, usage: String? = nil, help: String,
        showsInHelpBar: Bool = true, action: @escaping @MainActor (Invocation) -> CommandResult
    ) {
        self.title = title
        self.keys = keys
        name = typed?.lowercased()
        self.usage = usage
        self.help = help
        self.showsInHelpBar = showsInHelpBar
        self.action = action
    }

    /// Runs the command as `invocation`.
    @MainActor
    public func perform(_ invocation: Invocation) -> CommandResult {
        action(invocation)
    }

    /// Whether `press` runs the command.
    public func matches(_ press: KeyPress) -> Bool {
        keys.contains(press)
    }

    /// The help text for `commands`: one line each, the first key and the typed form in a
    /// column, then what it does.
    ///
    /// ```text
    /// n, new       Add a todo
    /// d, delete N  Delete the selected todo, or row N
    /// ```
    public static func helpText(for commands: [KeyCommand]) -> String {
        let rows = commands.map { command -> (String, String) in
            var forms = command.keys.prefix(1).map(\.description)
            if let typed = command.usage ?? command.name { forms.append(typed) }
            return (forms.joined(separator: ", "), command.help)
        }
        let width = rows.map(\.0.terminalWidth).max() ?? 0
        return rows.map { forms, help in
            forms + String(repeating: " ", count: width - forms.terminalWidth + 2) + help
        }.joined(separator: "\n")
    }
}
