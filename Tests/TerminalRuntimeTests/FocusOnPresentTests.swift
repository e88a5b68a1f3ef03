import HeadlessUI
import HeadlessUITesting
import Layout
import TerminalCore
import Testing

/// Issue 32: what comes on screen with a field to type in shows the cursor in the frame that
/// shows it, not from the first key on. The field is where that key goes, so the frame must
/// say so.
@MainActor
@Suite("The focus goes into what comes on screen before it is drawn")
struct FocusOnPresentTests {
    /// The shopping app on screen and drawn, and the controller to present from: the topmost,
    /// as the app's screens present.
    private func shownApp() -> (window: Window, list: ShoppingList, top: ViewController) {
        let app = makeShoppingApp()
        app.window.makeKeyAndVisible()
        _ = app.window.render()
        return (app.window, app.list, app.tabs)
    }

    /// A form whose field, holding "Ada", is the view to focus.
    private func nameForm() -> ItemForm {
        let form = ItemForm()
        form.prefersField = true
        form.field.text = "Ada"
        return form
    }

    @Test("a presented sheet's field has the focus, and the cursor, in the first frame drawn with it")
    func presentedSheet() throws {
        let (window, _, top) = shownApp()
        let sheet = TextEntrySheet(title: "Rename", text: "Item 1") { _ in }
        top.present(sheet)
        let frame = window.render()
        let field = try #require(frame.position(of: "[Item 1"), "\(frame.text())")
        #expect(frame.cursor == Canvas.Position(x: field.x + 7, y: field.y), "just after the text")
        #expect(window.focusedView === sheet.field)
    }

    @Test("a key that presents a sheet leaves the terminal's cursor in its field")
    func presentedByAKey() throws {
        let app = makeShoppingApp()
        let sheet = TextEntrySheet(title: "Rename", text: "Item 1") { _ in }
        app.window.keyCommands = [
            KeyCommand("Rename", keys: [KeyPress("r")], help: "Rename the item") { [weak tabs = app.tabs] _ in
                tabs?.present(sheet)
                return .handled
            }
        ]
        let pilot = TerminalPilot(window: app.window, size: Size(width: 40, height: 12))
        #expect(pilot.shownCursor == nil, "a list has no cursor")
        pilot.press(KeyPress("r"))
        let field = try #require(pilot.terminal.screen.position(of: "[Item 1"), "\(pilot.screen)")
        #expect(pilot.shownCursor == Canvas.Position(x: field.x + 7, y: field.y))
    }

    @Test("a pushed controller, and a new root, show the cursor in their preferred field at once")
    func pushedAndNewRoot() throws {
        let (window, list, _) = shownApp()
        let form = nameForm()
        try #require(list.navigationController).pushViewController(form)
        var frame = window.render()
        var field = try #require(frame.position(of: "Ada"), "\(frame.text())")
        #expect(frame.cursor == Canvas.Position(x: field.x + 3, y: field.y))

        let root = nameForm()
        window.rootViewController = root
        frame = window.render()
        field = try #require(frame.position(of: "Ada"), "\(frame.text())")
        #expect(frame.cursor == Canvas.Position(x: field.x + 3, y: field.y))
        #expect(window.focusedView === root.field)
    }

    @Test("a paste right after a sheet comes on goes into its field, as a key does")
    func pasteIntoAPresentedSheet() {
        let (window, _, top) = shownApp()
        let sheet = TextEntrySheet(title: "Rename", text: "Item") { _ in }
        top.present(sheet)
        #expect(window.send(.paste(" 1")) == .handled)
        #expect(sheet.field.text == "Item 1")
    }

    @Test("a focus the user moved stays; what a dismissed sheet uncovers gets its preferred view back")
    func chosenFocusStaysAndComesBack() {
        let (window, list, top) = shownApp()
        let form = nameForm()
        form.modalPresentationStyle = .formSheet
        top.present(form)
        _ = window.render()
        window.send(.key(KeyPress(.tab)))
        #expect(window.focusedView === form.save)
        #expect(window.render().cursor == nil, "a focused button shows no cursor")
        #expect(window.focusedView === form.save, "a frame does not take the focus back")
        form.dismiss()
        _ = window.render()
        #expect(window.focusedView === list.table)
    }
}
