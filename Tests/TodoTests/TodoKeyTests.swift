import AddTodo
import Domain
import HeadlessUI
import Layout
import RIBs
import RIBsHeadlessUI
import Reactor
import TerminalCore
import Testing

@testable import Todo

/// The list driven by keys, in a window of its own (a suite of its own, so that its longer run
/// keeps no other test's screen alive).
@MainActor
@Suite("Todo's keys: selection, toggle, delete and undo, filter, rename")
struct TodoKeyTests {
    let todo: TodoInAWindow

    init() async throws {
        todo = try await TodoInAWindow()
    }

    @Test(
        "keys: j/k and the arrows select, Space toggles, d deletes and u undoes, / filters, Enter renames in a sheet"
    )
    func keys() async throws {
        for title in [
            "eggs", "bread", "jam", "tea", "rice", "oats", "figs", "kale", "nuts", "plums", "dates",
        ] {
            await todo.perform("new")
            await todo.perform("save \(title)")
        }
        let list = todo.list
        #expect(list.tableView.selectedRow == 11, "a new todo is selected")
        await todo.press(KeyPress(.home))
        await todo.press(KeyPress("j"))
        await todo.press(KeyPress(.down))
        await todo.press(KeyPress("k"))
        #expect(list.tableView.selectedRow == 1)
        await todo.press(KeyPress(" "))
        #expect(todo.dependency.repository.savedTodos[1].isDone)
        let screen = todo.window.render().lines
        #expect(
            screen.contains { $0.contains("›  2. [x] eggs") }, "the selection shows without colour: \(screen)"
        )
        #expect(screen.contains { $0.contains("   3. [ ] bread") }, "numbers right-aligned past 9")
        await todo.press(KeyPress("d"))
        #expect(!todo.dependency.repository.savedTodos.contains { $0.title == "eggs" })
        await todo.press(KeyPress("u"))
        #expect(todo.dependency.repository.savedTodos.last?.title == "eggs")
        await todo.press(KeyPress("/"))
        #expect(list.filter == .active)
        await todo.press(KeyPress("/"))
        #expect(list.filter == .done)
        #expect(try await todo.dependency.preferences.loadPreferences().filter == .done)
        await todo.press(KeyPress("/"))
        await todo.press(KeyPress(.home))
        await todo.press(KeyPress(.enter))
        let sheet = try #require(todo.window.topmostController as? TextEntrySheet)
        #expect(sheet.field.text == "milk")
        await todo.press(KeyPress("s"))
        await todo.press(KeyPress(.enter))
        #expect(todo.window.topmostController !== sheet)
        #expect(todo.dependency.repository.savedTodos.first?.title == "milks")
        todo.router.interactable.deactivate()
    }
}
