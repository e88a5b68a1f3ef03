/// Where each typed command lives, so that a command typed on the wrong screen says where to go
/// instead of "unknown", and the help lists what the other screens offer.
enum CommandPlaces {
    struct Place {
        /// The screen, as a sentence names it: "the Todo list".
        let screen: String
        /// How to get there: "press Tab or type `tab todo`".
        let howToGetThere: String
        /// Its typed commands, as the help shows them.
        let commands: [(usage: String, help: String)]
    }

    static let todoList = Place(
        screen: "the Todo list", howToGetThere: "type `tab todo` (and `back` from a form)",
        commands: [
            ("new", "add a todo"), ("done N", "mark row N done or not"), ("edit N TITLE", "rename row N"),
            ("delete N", "delete row N"), ("undo", "put back what delete or clear removed"),
            ("clear", "delete every done todo"), ("filter all|active|done", "which todos show"),
            ("scroll up|down", "scroll a page"),
        ])
    static let newTodo = Place(
        screen: "the New todo form", howToGetThere: "type `new` on the Todo list first",
        commands: [("save TITLE", "add the todo"), ("cancel", "leave the form")])
    static let profile = Place(
        screen: "the Profile tab", howToGetThere: "type `tab profile`",
        commands: [
            ("refresh", "another photo"), ("fav", "keep the photo or drop it"),
            ("favs", "browse the favourites"),
            ("name TEXT", "set your name"), ("bio TEXT", "set your bio"),
        ])

    static let all = [todoList, newTodo, profile]

    /// The place whose commands include `name`.
    static func place(of name: String) -> Place? {
        all.first { place in
            place.commands.contains { $0.usage.split(separator: " ").first.map(String.init) == name }
        }
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
            let width = place.commands.map(\.usage.count).max() ?? 0
            let lines = place.commands.map { usage, help in
                narrow
                    ? "  \(usage)\n      \(help)"
                    : "  " + usage + String(repeating: " ", count: width - usage.count + 2) + help
            }
            return "On \(place.screen):\n" + lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
