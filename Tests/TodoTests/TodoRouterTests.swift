import AddTodo
import Domain
import HeadlessUI
import Layout
import RIBs
import RIBsHeadlessUI
import Reactor
import Testing

@testable import Todo

@MainActor
@Suite("TodoRouter and TodoBuilder: AddTodo is attached on new, detached on save, cancel and back")
struct TodoRouterTests {
    let todo: TodoInAWindow

    init() async throws {
        todo = try await TodoInAWindow()
    }

    @Test("the builder wires the interactor, the presenter and AddTodo's builder over its component")
    func builderWiring() throws {
        let interactor = try #require(todo.router.interactable as? TodoInteractor)
        let list = todo.list
        #expect(interactor.router === todo.router)
        #expect(list.listener === interactor)
        #expect(interactor.reactor.currentState.list.todos.map(\.title) == ["milk"])
        todo.router.interactable.deactivate()
    }

    @Test("new pushes AddTodo and attaches it; a second new does nothing more")
    func attach() throws {
        todo.router.routeToAddTodo()
        todo.router.routeToAddTodo()
        #expect(todo.router.children.count == 1)
        #expect(todo.navigation.viewControllers.count == 2)
        #expect(todo.navigation.topViewController?.title == "New todo")
        #expect(RouterTree(todo.router).text.contains("AddTodoRouter [active"))
        todo.router.interactable.deactivate()
    }

    @Test("save pops and detaches AddTodo, and the list's reactor adds the todo")
    func saveDetaches() async throws {
        todo.router.routeToAddTodo()
        await todo.perform("save buy jam")
        #expect(todo.router.children.isEmpty)
        #expect(todo.router.addTodo == nil)
        #expect(todo.navigation.viewControllers.count == 1)
        #expect(todo.dependency.repository.savedTodos.map(\.title) == ["milk", "buy jam"])
        #expect(todo.window.render().lines.contains { $0.contains("2. [ ] buy jam") })
        todo.router.interactable.deactivate()
    }

    @Test("cancel and back both detach AddTodo")
    func cancelAndBack() throws {
        todo.router.routeToAddTodo()
        #expect(todo.window.perform(try #require(TerminalCommand("cancel"))) == .handled)
        #expect(todo.router.children.isEmpty)
        #expect(todo.navigation.viewControllers.count == 1)

        todo.router.routeToAddTodo()
        #expect(todo.navigation.goBack())
        #expect(todo.router.children.isEmpty)
        #expect(todo.router.addTodo == nil)
        todo.router.routeToAddTodo()
        #expect(todo.router.children.count == 1, "AddTodo can be opened again after back")
        todo.router.interactable.deactivate()
    }

    @Test("the list's typed commands name rows as the list numbers them")
    func listCommands() async throws {
        await todo.perform("done 1")
        #expect(todo.dependency.repository.savedTodos.first?.isDone == true)
        #expect(
            todo.window.perform(try #require(TerminalCommand("done 2")))
                == .failed("There is no row 2; rows go 1 to 1."))
        #expect(
            todo.window.perform(try #require(TerminalCommand("edit 1")))
                == .failed("Usage: edit N TITLE (or select a todo and press Enter)"))
        await todo.perform("edit 1 oat milk")
        #expect(todo.window.render().lines.contains { $0.contains("1. [x] oat milk") })
        todo.router.interactable.deactivate()
    }
}
