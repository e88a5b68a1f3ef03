import AddTodo
import HeadlessUI
import Profile
import Todo

/// Where each typed command lives, so that a command typed on the wrong screen says where to go
/// instead of "unknown", and the help lists what the other screens offer. The commands are the
/// screens' own declarations (`TodoCommands`, `AddTodoCommands`, `ProfileCommands`), from which
/// those screens make their key commands; only the screens' names and ways there are written
/// here. `CommandPlacesTests` checks each screen on display against its place.
enum CommandPlaces {
    struct Place {
        /// The screen, as a sentence names it: "the Todo list".
        let screen: String
        /// How to get there: "press Tab or type `tab todo`".
        let howToGetThere: String
        /// Its typed commands, as the screen declares them.
        let commands: [KeyCommand.Declaration]

        init(screen: String, howToGetThere: String, declarations: [KeyCommand.Declaration]) {
            self.screen = screen
            self.howToGetThere = howToGetThere
            commands = declarations.filter { $0.name != nil }
        }
    }

    static let todoList = Place(
        screen: "the Todo list", howToGetThere: "type `tab todo` (and `back` from a form)",
        declarations: TodoCommands.all)
    static let newTodo = Place(
        screen: "the New todo form", howToGetThere: "type `new` on the Todo list first",
        declarations: AddTodoCommands.all)
    static let profile = Place(
        screen: "the Profile tab", howToGetThere: "type `tab profile`", declarations: ProfileCommands.all)

    static let all = [todoList, newTodo, profile]

    /// The place whose commands include `name`.
    static func place(of name: String) -> Place? {
        all.first { place in place.commands.contains { $0.name == name } }
    }

    /// What the status line says for `name`, which nothing on screen knows.
    static func notHere(_ name: String) -> String {
        guard let place = place(of: name) else {
            return "Unknown command `\(name)`. Press ? (or type `help`) for the commands."
        }
        return "`\(name)` belongs to \(place.screen): \(place.howToGetThere)."
    }

    /// Every screen's typed commands, for the end of the help: in two columns, or, `narrow`,
    /// each over its explanation.
    static func helpText(narrow: Bool = false) -> String {
        all.map { place in
            "On \(place.screen):\n"
                + KeyCommand.helpText(for: place.commands, showingKeys: false, narrow: narrow, indent: 2)
        }.joined(separator: "\n")
    }
}
