import Domain
import DomainTesting
import Foundation
import RIBs
import Reactor
import Testing

@testable import Todo

@MainActor
@Suite("TodoInteractor: taps and AddTodo's title become reactor actions, the one way the todos change")
struct TodoInteractorTests {
    let dependency = TodoDependencyMock(titles: ["milk", "eggs", "bread"])
    let presenter = TodoPresenterMock()
    let book: TodoBook
    let interactor: TodoInteractor
    let router: TodoRouterMock

    init() {
        book = TodoBook(repository: dependency.repository)
        interactor = TodoInteractor(presenter: presenter, reactor: TodoReactor(book: book))
        router = TodoRouterMock(interactor: interactor, viewController: presenter)
        interactor.router = router
    }

    /// Runs `body` and returns once the actions it sent are on the screen.
    private func acting(_ body: () -> Void) async {
        await SentActions.during(body).reduced()
    }

    @Test("activation shows the book's list at once")
    func showsOnActivation() {
        interactor.activate()
        #expect(presenter.presented.last?.visible.map(\.title) == ["milk", "eggs", "bread"])
        #expect(presenter.listener === interactor)
        interactor.deactivate()
    }

    @Test("toggle, rename, delete and clear go through the reactor to the book and the screen")
    func changes() async throws {
        interactor.activate()
        let ids = book.list.todos.map(\.id)
        await acting {
            interactor.didToggle(ids[0])
            interactor.didRename(ids[1], to: "brown eggs")
        }
        #expect(presenter.presented.last?.list.todos.map(\.title) == ["milk", "brown eggs", "bread"])
        #expect(presenter.presented.last?.list.todos.map(\.isDone) == [true, false, false])
        await acting {
            interactor.didClearCompleted()
            interactor.didDelete(ids[2])
        }
        #expect(presenter.presented.last?.visible.map(\.title) == ["brown eggs"])
        #expect(dependency.repository.savedTodos.map(\.title) == ["brown eggs"])
        #expect(presenter.presented.last?.status == .success("Deleted \"bread\". Press u to undo."))
        interactor.deactivate()
    }

    @Test("undo puts back what the last delete or clear removed, saved; a second undo has nothing to undo")
    func undo() async throws {
        interactor.activate()
        let ids = book.list.todos.map(\.id)
        await acting { interactor.didDelete(ids[1]) }
        #expect(dependency.repository.savedTodos.map(\.title) == ["milk", "bread"])
        await acting { interactor.didUndo() }
        #expect(presenter.presented.last?.status == .success("Put back \"eggs\"."))
        #expect(dependency.repository.savedTodos.map(\.title) == ["milk", "bread", "eggs"])
        #expect(book.list.todos.first { $0.title == "eggs" }?.id == ids[1], "the same todo, not a copy")
        await acting {
            interactor.didToggle(ids[0])
            interactor.didToggle(ids[2])
            interactor.didClearCompleted()
        }
        #expect(presenter.presented.last?.status == .success("Cleared 2 done. Press u to undo."))
        await acting { interactor.didUndo() }
        #expect(presenter.presented.last?.visible.count == 3)
        #expect(presenter.presented.last?.visible.filter(\.isDone).count == 2, "they come back done")
        await acting { interactor.didUndo() }
        #expect(presenter.presented.last?.status == .failure("Nothing to undo."))
        interactor.deactivate()
    }

    @Test("the filter is kept in the screen preferences and read back by the next reactor")
    func filterIsKept() async throws {
        let preferences = InMemoryProfileStore()
        let reactor = TodoReactor(book: book, preferences: preferences)
        await reactor.send(.setFilter(.active)).reduced()
        #expect(try preferences.loadPreferences().filter == .active)
        #expect(TodoReactor(book: book, preferences: preferences).currentState.filter == .active)
        preferences.failSaves(with: .unwritable(reason: "read-only"))
        await reactor.send(.setFilter(.done)).reduced()
        #expect(reactor.currentState.filter == .done, "the screen still changes")
        #expect(reactor.currentState.status?.kind == .failure)
    }

    @Test("filter shows only matching todos; a refused change leaves a status line")
    func filterAndRefusal() async throws {
        interactor.activate()
        let milk = try #require(book.list.todos.first)
        await acting {
            interactor.didToggle(milk.id)
            interactor.didSelectFilter(.done)
        }
        #expect(presenter.presented.last?.visible.map(\.title) == ["milk"])
        await acting { interactor.didRename(milk.id, to: "   ") }
        #expect(presenter.presented.last?.status?.text == "A todo needs a title.")
        dependency.repository.failSaves(with: .unwritable(reason: "disk full"))
        await acting { interactor.didToggle(milk.id) }
        #expect(presenter.presented.last?.status?.text == "Not saved: could not write (disk full)")
        #expect(presenter.presented.last?.visible.isEmpty == true, "the change stays in memory")
        interactor.deactivate()
    }

    @Test("AddTodo's title is added by this reactor, which detaches AddTodo and says so")
    func addTodoFlow() async throws {
        interactor.activate()
        interactor.didTapNew()
        #expect(router.routeToAddTodoCalls == 1)
        await acting { interactor.addTodoDidSubmit(title: "jam") }
        #expect(router.detachAddTodoCalls == 1)
        #expect(presenter.presented.last?.status?.text == "Added \"jam\".")
        #expect(presenter.presented.last?.visible.last?.title == "jam")
        #expect(dependency.repository.savedTodos.last?.title == "jam")
        interactor.addTodoDidCancel()
        #expect(router.detachAddTodoCalls == 2)
        interactor.deactivate()
    }

    @Test("a title that cannot be saved is still listed, with the reason, not a guess at which todo it was")
    func addNotSaved() async {
        interactor.activate()
        dependency.repository.failSaves(with: .unwritable(reason: "read-only"))
        await acting { interactor.addTodoDidSubmit(title: "jam") }
        #expect(presenter.presented.last?.visible.map(\.title) == ["milk", "eggs", "bread", "jam"])
        #expect(presenter.presented.last?.status?.text == "Not saved: could not write (read-only)")
        interactor.deactivate()
    }

    @Test("an inactive interactor shows nothing, and shows the current list when it comes back")
    func inactiveShowsNothing() async throws {
        interactor.activate()
        interactor.deactivate()
        let shown = presenter.presented.count
        let milk = try #require(book.list.todos.first)
        await acting { interactor.didToggle(milk.id) }
        #expect(presenter.presented.count == shown)
        interactor.activate()
        #expect(presenter.presented.last?.list.todos.first?.isDone == true)
        interactor.deactivate()
    }
}
