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
        #expect(presenter.presented.last?.status == nil)
        interactor.deactivate()
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
        #expect(presenter.presented.last?.status == "A todo needs a title.")
        dependency.repository.failSaves(with: .unwritable(reason: "disk full"))
        await acting { interactor.didToggle(milk.id) }
        #expect(presenter.presented.last?.status == "Not saved: could not write (disk full)")
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
        #expect(presenter.presented.last?.status == "Added \"jam\".")
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
        #expect(presenter.presented.last?.status == "Not saved: could not write (read-only)")
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
