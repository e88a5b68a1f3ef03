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
    let dependency = TodoDependencyMock(titles: ["milk"])
    let router: TodoRouter
    let navigation: NavigationController
    let window = Window(size: Size(width: 60, height: 16))

    init() throws {
        let built = TodoBuilder(dependency: dependency).build(withListener: TodoListenerMock())
        router = try #require(built as? TodoRouter)
        let list = try #require(router.viewController as? TodoViewController)
        navigation = NavigationController(rootViewController: list)
        window.rootViewController = navigation
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

    @Test("the builder wires the interactor, the presenter and AddTodo's builder over its component")
    func builderWiring() throws {
        let interactor = try #require(router.interactable as? TodoInteractor)
        let list = try #require(router.viewController as? TodoViewController)
        #expect(interactor.router === router)
        #expect(list.listener === interactor)
        #expect(interactor.reactor.currentState.list.todos.map(\.title) == ["milk"])
        router.interactable.deactivate()
    }

    @Test("new pushes AddTodo and attaches it; a second new does nothing more")
    func attach() throws {
        router.routeToAddTodo()
        router.routeToAddTodo()
        #expect(router.children.count == 1)
        #expect(navigation.viewControllers.count == 2)
        #expect(navigation.topViewController?.title == "New todo")
        #expect(RouterTree(router).text.contains("AddTodoRouter [active"))
        router.interactable.deactivate()
    }

    @Test("save pops and detaches AddTodo, and the list's reactor adds the todo")
    func saveDetaches() async throws {
        router.routeToAddTodo()
        await perform("save buy jam")
        #expect(router.children.isEmpty)
        #expect(router.addTodo == nil)
        #expect(navigation.viewControllers.count == 1)
        #expect(dependency.repository.savedTodos.map(\.title) == ["milk", "buy jam"])
        #expect(window.render().lines.contains { $0.contains("2. [ ] buy jam") })
        router.interactable.deactivate()
    }

    @Test("cancel and back both detach AddTodo")
    func cancelAndBack() throws {
        router.routeToAddTodo()
        #expect(window.perform(try #require(TerminalCommand("cancel"))) == .handled)
        #expect(router.children.isEmpty)
        #expect(navigation.viewControllers.count == 1)

        router.routeToAddTodo()
        #expect(navigation.goBack())
        #expect(router.children.isEmpty)
        #expect(router.addTodo == nil)
        router.routeToAddTodo()
        #expect(router.children.count == 1, "AddTodo can be opened again after back")
        router.interactable.deactivate()
    }

    @Test("the list's typed commands name rows as the list numbers them")
    func listCommands() async throws {
        await perform("done 1")
        #expect(dependency.repository.savedTodos.first?.isDone == true)
        #expect(
            window.perform(try #require(TerminalCommand("done 2")))
                == .failed("There is no row 2; rows go 1 to 1."))
        #expect(
            window.perform(try #require(TerminalCommand("edit 1")))
                == .failed("Usage: edit N TITLE (or select a todo and press Enter)"))
        await perform("edit 1 oat milk")
        #expect(window.render().lines.contains { $0.contains("1. [x] oat milk") })
        router.interactable.deactivate()
    }
}
