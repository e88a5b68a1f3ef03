import AddTodo
import Domain
import HeadlessUI
import Layout
import RIBs
import RIBsHeadlessUI
import Reactor
import Testing

@testable import Todo

/// The list driven by keys, in a window of its own (a suite of its own, so that its longer run
/// keeps no other test's screen alive).
@MainActor
@Suite("Todo's keys: selection, toggle, delete and undo, filter, rename")
struct TodoKeyTests {
    let dependency = TodoDependencyMock(titles: ["milk"])
    let router: TodoRouter
    let window = Window(size: Size(width: 60, height: 16))

    init() throws {
        let built = TodoBuilder(dependency: dependency).build(withListener: TodoListenerMock())
        router = try #require(built as? TodoRouter)
        let list = try #require(router.viewController as? TodoViewController)
        window.rootViewController = NavigationController(rootViewController: list)
        window.makeKeyAndVisible()
        router.interactable.activate()
        router.load()
    }

    /// Performs `line` on the window, expecting it handled, and returns once its actions are on
    /// the screen.
    private func perform(_ line: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) async {
        var result = CommandResult.notHandled
        await SentActions.during {
            if let command = TerminalCommand(line) { result = window.perform(command) }
        }.reduced()
        #expect(result == .handled, sourceLocation: sourceLocation)
    }

    /// Sends `key` to the window and returns once its actions are on the screen.
    private func press(_ key: KeyPress) async {
        await SentActions.during { window.send(.key(key)) }.reduced()
    }

    @Test(
        "keys: j/k and the arrows select, Space toggles, d deletes and u undoes, / filters, Enter renames in a sheet"
    )
    func keys() async throws {
        for title in [
            "eggs", "bread", "jam", "tea", "rice", "oats", "figs", "kale", "nuts", "plums", "dates",
        ] {
            await perform("new")
            await perform("save \(title)")
        }
        let list = try #require(router.viewController as? TodoViewController)
        #expect(list.tableView.selectedRow == 11, "a new todo is selected")
        await press(KeyPress(.home))
        await press(KeyPress("j"))
        await press(KeyPress(.down))
        await press(KeyPress("k"))
        #expect(list.tableView.selectedRow == 1)
        await press(KeyPress(" "))
        #expect(dependency.repository.savedTodos[1].isDone)
        let screen = window.render().lines
        #expect(
            screen.contains { $0.contains("›  2. [x] eggs") }, "the selection shows without colour: \(screen)"
        )
        #expect(screen.contains { $0.contains("   3. [ ] bread") }, "numbers right-aligned past 9")
        await press(KeyPress("d"))
        #expect(!dependency.repository.savedTodos.contains { $0.title == "eggs" })
        await press(KeyPress("u"))
        #expect(dependency.repository.savedTodos.last?.title == "eggs")
        await press(KeyPress("/"))
        #expect(list.filter == .active)
        await press(KeyPress("/"))
        #expect(list.filter == .done)
        #expect(try dependency.preferences.loadPreferences().filter == .done)
        await press(KeyPress("/"))
        await press(KeyPress(.home))
        await press(KeyPress(.enter))
        let sheet = try #require(window.topmostController as? TextEntrySheet)
        #expect(sheet.field.text == "milk")
        await press(KeyPress("s"))
        await press(KeyPress(.enter))
        #expect(window.topmostController !== sheet)
        #expect(dependency.repository.savedTodos.first?.title == "milks")
        router.interactable.deactivate()
    }
}
