import HeadlessUI
import TerminalCore
import Testing

@MainActor
@Suite("KeyCommand: a declaration and what it does")
struct KeyCommandTests {
    static let rename = KeyCommand.Declaration(
        "Rename", keys: [KeyPress("e")], typed: "Edit", usage: "edit N TITLE", help: "Rename row N",
        showsInHelpBar: false)

    @Test("declared in one go or from a declaration, a command holds the same declaration")
    func bothInitializersMakeTheSameDeclaration() {
        let inline = KeyCommand(
            "Rename", keys: [KeyPress("e")], typed: "Edit", usage: "edit N TITLE", help: "Rename row N",
            showsInHelpBar: false
        ) { _ in .handled }
        let declared = KeyCommand(Self.rename) { _ in .handled }
        #expect(inline.declaration == declared.declaration)
        #expect(declared.name == "edit", "the typed word is kept lowercase")
    }

    @Test("the declaration's fields read and change through the command")
    func fieldsForwardToTheDeclaration() {
        var command = KeyCommand(Self.rename) { _ in .handled }
        #expect(command.title == "Rename")
        #expect(command.keys == [KeyPress("e")])
        #expect(command.usage == "edit N TITLE")
        #expect(command.help == "Rename row N")
        #expect(!command.showsInHelpBar)

        command.keys.removeAll()
        command.name = nil
        #expect(command.declaration.keys.isEmpty)
        #expect(command.declaration.name == nil)
        #expect(!command.matches(KeyPress("e")))
        #expect(Self.rename.keys == [KeyPress("e")], "the shared declaration is a value: it is unchanged")
    }

    @Test("the help text is made from the declarations: keys, typed form, what it does")
    func helpTextFromDeclarations() {
        let commands = [
            KeyCommand(Self.rename) { _ in .handled },
            KeyCommand("New", keys: [KeyPress("n")], typed: "new", help: "Add a todo") { _ in .handled },
        ]
        #expect(
            KeyCommand.helpText(for: commands) == """
                e, edit N TITLE  Rename row N
                n, new           Add a todo
                """)
    }

    @Test("the help text lists every key a command answers to, not only the first")
    func helpTextListsEveryKey() {
        let declarations = [
            KeyCommand.Declaration(
                "Done", keys: [KeyPress(" "), KeyPress("x")], typed: "done", usage: "done N", help: "Toggle"),
            KeyCommand.Declaration("Delete", keys: [KeyPress("d"), KeyPress(.delete)], help: "Delete"),
            KeyCommand.Declaration(
                "Next", keys: [KeyPress(.right), KeyPress(.down), KeyPress("l"), KeyPress("j")], help: "Next"),
            KeyCommand.Declaration(
                "Help", keys: [KeyPress("?"), KeyPress(.function(1))], typed: "help", help: "Help"),
        ]
        #expect(
            KeyCommand.helpText(for: declarations) == """
                Space/x, done N  Toggle
                d/Del            Delete
                Right/Down/l/j   Next
                ?/F1, help       Help
                """)
    }

    @Test("keys that differ by the next digit or letter read as a range; a slash key is joined by `or`")
    func keysTextRangesAndSlash() {
        let tabs = KeyCommand.Declaration(
            "Tab", keys: (1...9).map { KeyPress(Character("\($0)"), modifiers: .alt) }, help: "A tab")
        #expect(tabs.keysText == "Alt-1..Alt-9")
        let two = KeyCommand.Declaration("Tab", keys: Array(tabs.keys.prefix(2)), help: "A tab")
        #expect(two.keysText == "Alt-1/Alt-2", "two keys are listed, not a range")
        let mixed = KeyCommand.Declaration(
            "Pick", keys: [KeyPress("a"), KeyPress("b"), KeyPress("c"), KeyPress("C"), KeyPress("1")],
            help: "Pick")
        #expect(mixed.keysText == "a..c/C/1")
        let slash = KeyCommand.Declaration(
            "Find", keys: [KeyPress("/"), KeyPress(.function(3))], help: "Find")
        #expect(slash.keysText == "/ or F3")
        #expect(KeyCommand.Declaration("Find", keys: [KeyPress("/")], help: "Find").keysText == "/")
        #expect(KeyCommand.Declaration("Clear", help: "Clear").keysText == "")
    }

    @Test("narrow, each command's forms stand over its explanation; without keys only the typed forms")
    func narrowHelpTextWithoutKeys() {
        let declarations = [Self.rename, KeyCommand.Declaration("Undo", keys: [KeyPress("u")], help: "Undo")]
        #expect(
            KeyCommand.helpText(for: declarations, narrow: true) == """
                e, edit N TITLE
                    Rename row N
                u
                    Undo
                """)
        #expect(
            KeyCommand.helpText(for: declarations, showingKeys: false, indent: 2) == """
                  edit N TITLE  Rename row N
                                Undo
                """)
    }
}
