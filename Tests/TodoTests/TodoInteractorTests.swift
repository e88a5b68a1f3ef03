import Domain
import Foundation
import RIBs
import Testing

@testable import Todo

@MainActor
@Suite("TodoInteractor: taps become reactor actions; each one is an activity until it is on screen")
struct TodoInteractorTests {
    let dependency = TodoDependencyMock(titles: ["milk", "eggs", "bread"])
    let presenter = TodoPresenterMock()
    let interactor: TodoInteractor
    let router: TodoRouterMock

    init() {
        interactor = TodoInteractor(
            presenter: presenter, reactor: TodoReactor(book: dependency.todoBook),
            activity: dependency.activity)
        router = TodoRouterMock(interactor: interactor, viewController: presenter)
        interactor.router = router
    }

    private func settle() async {
        await dependency.activity.waitUntilIdle()
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
        let ids = dependency.todoBook.list.todos.map(\.id)
        interactor.didToggle(ids[0])
        interactor.didRename(ids[1], to: "brown eggs")
        await settle()
        #expect(presenter.presented.last?.list.todos.map(\.title) == ["milk", "brown eggs", "bread"])
        #expect(presenter.presented.last?.list.todos.map(\.isDone) == [true, false, false])
        interactor.didClearCompleted()
        interactor.didDelete(ids[2])
        await settle()
        #expect(presenter.presented.last?.visible.map(\.title) == ["brown eggs"])
        #expect(dependency.repository.savedTodos.map(\.title) == ["brown eggs"])
        #expect(presenter.presented.last?.status == nil)
        interactor.deactivate()
    }

    @Test("filter shows only matching todos; a refused change leaves a status line")
    func filterAndRefusal() async throws {
        interactor.activate()
        let milk = try #require(dependency.todoBook.list.todos.first)
        interactor.didToggle(milk.id)
        interactor.didSelectFilter(.done)
        await settle()
        #expect(presenter.presented.last?.visible.map(\.title) == ["milk"])
        interactor.didRename(milk.id, to: "   ")
        await settle()
        #expect(presenter.presented.last?.status == "A todo needs a title.")
        dependency.repository.failSaves(with: .unwritable(reason: "disk full"))
        interactor.didToggle(milk.id)
        await settle()
        #expect(presenter.presented.last?.status == "Not saved: could not write (disk full)")
        #expect(presenter.presented.last?.visible.isEmpty == true, "the change stays in memory")
        interactor.deactivate()
    }

    @Test("new routes to AddTodo; save and cancel detach it; a save reloads the list")
    func addTodoFlow() async throws {
        interactor.activate()
        interactor.didTapNew()
        #expect(router.routeToAddTodoCalls == 1)
        let added = try dependency.todoBook.add(title: "jam")
        interactor.addTodoDidSave(added, warning: nil)
        await settle()
        #expect(router.detachAddTodoCalls == 1)
        #expect(presenter.presented.last?.status == "Added \"jam\".")
        #expect(presenter.presented.last?.visible.last?.title == "jam")
        interactor.addTodoDidCancel()
        #expect(router.detachAddTodoCalls == 2)
        interactor.deactivate()
    }

    @Test("deactivating ends the activities whose state will not be shown")
    func deactivationEndsActivities() {
        interactor.activate()
        interactor.didClearCompleted()
        #expect(!dependency.activity.isIdle)
        interactor.deactivate()
        #expect(dependency.activity.isIdle)
    }
}
