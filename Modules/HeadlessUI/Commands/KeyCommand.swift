import TerminalCore

/// A command a view controller offers, declared once: the keys that run it, the word typed at
/// a prompt that runs it, and the text that explains it. The help bar (``HelpBar``) and the
/// help text (``KeyCommand/helpText(for:narrow:)``) are made from these declarations, so they never
/// drift from what the app does. It is UIKit's `UIKeyCommand` idea, with a typed form for
/// terminal prompts.
///
/// ```swift
/// override var keyCommands: [KeyCommand] {
///     [
///         KeyCommand("New", keys: [KeyPress("n")], typed: "new", help: "Add a todo") {
///             [weak self] _ in
///             self?.startNewTodo()
///             return .handled
///         },
///         KeyCommand("Rename", typed: "edit", usage: "edit N TITLE", help: "Rename row N") {
///             [weak self] invocation in
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
@dynamicMemberLookup
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

    /// What the command is: its title, keys, typed form and help. Its fields read through the
    /// command too (`command.title`, `command.keys`).
    public var declaration: Declaration
    let action: @MainActor (Invocation) -> CommandResult

    /// The command `declaration` declares, doing `action`.
    ///
    /// - Parameter action: Runs the command; return ``CommandResult/failed(_:)`` with a reason
    ///   when it cannot be done.
    public init(_ declaration: Declaration, action: @escaping @MainActor (Invocation) -> CommandResult) {
        self.declaration = declaration
        self.action = action
    }

    /// Declares a command and what it does in one place, for a command no other screen or help
    /// needs to read; the parameters before `action` are
    /// ``Declaration/init(_:keys:typed:usage:help:showsInHelpBar:)``'s.
    public init(
        _ title: String, keys: [KeyPress] = [], typed: String? = nil, usage: String? = nil, help: String,
        showsInHelpBar: Bool = true, action: @escaping @MainActor (Invocation) -> CommandResult
    ) {
        self.init(
            Declaration(
                title, keys: keys, typed: typed, usage: usage, help: help, showsInHelpBar: showsInHelpBar),
            action: action)
    }

    /// The declaration's field at `keyPath`, to read or change: `command.title` is
    /// `command.declaration.title`.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Declaration, Value>) -> Value {
        get { declaration[keyPath: keyPath] }
        set { declaration[keyPath: keyPath] = newValue }
    }

    /// Runs the command as `invocation`.
    @MainActor
    public func perform(_ invocation: Invocation) -> CommandResult {
        action(invocation)
    }

    /// Whether `press` runs the command.
    public func matches(_ press: KeyPress) -> Bool {
        declaration.keys.contains(press)
    }

    /// The help text for `commands`, made from their declarations as
    /// ``helpText(for:showingKeys:narrow:indent:)`` makes it.
    public static func helpText(for commands: [KeyCommand], narrow: Bool = false) -> String {
        helpText(for: commands.map(\.declaration), narrow: narrow)
    }

    /// The help text for `declarations`: a row each, every key (``Declaration/keysText``) and
    /// the typed form, then what the command does, in two columns.
    ///
    /// ```text
    /// n, new           Add a todo
    /// d/Del, delete N  Delete the selected todo, or row N
    /// ```
    ///
    /// - Parameters:
    ///   - showingKeys: Whether the keys are listed; an app leaves them out for the commands of
    ///     screens not on display, which can only be typed there.
    ///   - narrow: Each command's forms over its explanation, indented, for a screen too narrow
    ///     for two columns.
    ///   - indent: Spaces before every row.
    public static func helpText(
        for declarations: [Declaration], showingKeys: Bool = true, narrow: Bool = false, indent: Int = 0
    ) -> String {
        let margin = String(repeating: " ", count: indent)
        let rows = declarations.map { declaration -> (forms: String, help: String) in
            var forms = showingKeys && !declaration.keys.isEmpty ? [declaration.keysText] : []
            if let typed = declaration.usage ?? declaration.name { forms.append(typed) }
            return (forms.joined(separator: ", "), declaration.help)
        }
        let width = rows.map(\.forms.terminalWidth).max() ?? 0
        return rows.map { forms, help in
            narrow
                ? margin + forms + "\n" + margin + "    " + help
                : margin + forms + String(repeating: " ", count: width - forms.terminalWidth + 2) + help
        }.joined(separator: "\n")
    }
}
