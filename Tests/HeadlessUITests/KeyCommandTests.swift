import HeadlessUI
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

    @Test("the help text is made from the declarations: first key, typed form, what it does")
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
