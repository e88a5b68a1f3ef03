import Domain
import DomainTesting
import Foundation
import HeadlessUI
import RIBs
import Reactor
import Testing

@testable import Todo

@MainActor
@Suite("TodoInteractor: taps and AddTodo's title become reactor actions, the one way the todos change")
struct TodoInteractorTests {
    let dependency = TodoDependencyMock(titles: ["milk", "eggs", "bread"])
    let presenter = TodoPresenterMock()
    let interactor: TodoInteractor
    let router: TodoRouterMock

    init() {
        interactor = TodoInteractor(
            presenter: presenter, reactor: TodoReactor(repository: dependency.repository))
        router = TodoRouterMock(interactor: interactor, viewController: presenter)
        interactor.router = router
    }

    /// Runs `body` and returns once the actions it sent are on the screen.
    private func acting(_ body: () -> Void) async {
        await SentActions.during(body).reduced()
    }

    /// Activates the interactor and returns once the todos it reads are on the screen.
    private func activate() async {
        await acting { interactor.activate() }
    }

    @Test("activation reads the todos and shows them, saying until then that they are being read")
    func showsOnActivation() async {
        interactor.activate()
        #expect(presenter.presented.last?.isLoaded == false)
        #expect(presenter.presented.last?.list.todos.isEmpty == true)
        interactor.deactivate()
        await activate()
        #expect(presenter.presented.last?.isLoaded == true)
        #expect(presenter.presented.last?.visible.map(\.title) == ["milk", "eggs", "bread"])
        #expect(presenter.listener === interactor)
        interactor.deactivate()
    }

    @Test("the list read at activation reaches the screen as one state, with its kept filter")
    func theReadListIsPresentedOnce() async {
        await activate()
        // A present of 10,000 todos filters them and reloads the table: it was three at a launch.
        let withTodos = presenter.presented.filter { !$0.list.todos.isEmpty }
        #expect(withTodos.count == 1, "the list read was presented \(withTodos.count) times")
        #expect(withTodos.first?.isLoaded == true)
        interactor.deactivate()
    }

    @Test("toggle, rename, delete and clear go through the reactor to the repository and the screen")
    func changes() async throws {
        await activate()
        let ids = interactor.reactor.currentState.list.todos.map(\.id)
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
        #expect(presenter.lastNotice == .success("Deleted \"bread\". Press u to undo."))
        interactor.deactivate()
    }

    @Test(
        "each command reaches the screen as one state that says what it changed, and the store gets the change alone"
    )
    func oneStatePerCommand() async throws {
        await activate()
        let milk = try #require(interactor.reactor.currentState.list.todos.first)
        var shown = presenter.presented.count
        await acting { interactor.addTodoDidSubmit(title: "jam") }
        #expect(presenter.presented.count == shown + 1, "the todo and its status came in one state")
        let added = try #require(presenter.presented.last)
        #expect(added.lastChanges.map(\.todo?.title) == ["jam"])
        #expect(added.notice.value == .success("Added \"jam\"."))
        shown = presenter.presented.count
        await acting { interactor.didToggle(milk.id) }
        #expect(presenter.presented.count == shown + 1)
        #expect(presenter.presented.last?.lastChanges.map(\.todo?.isDone) == [true])
        await acting { interactor.didSelectFilter(.active) }
        #expect(presenter.presented.last?.lastChanges.isEmpty == true, "a filter changes no todo")
        #expect(dependency.repository.saveCount == 2, "one record per change")
        #expect(dependency.repository.savedTodos == interactor.reactor.currentState.list.todos)
        interactor.deactivate()
    }

    @Test("undo puts back what the last delete or clear removed, saved; a second undo has nothing to undo")
    func undo() async throws {
        await activate()
        let ids = interactor.reactor.currentState.list.todos.map(\.id)
        await acting { interactor.didDelete(ids[1]) }
        #expect(dependency.repository.savedTodos.map(\.title) == ["milk", "bread"])
        await acting { interactor.didUndo() }
        #expect(presenter.lastNotice == .success("Put back \"eggs\"."))
        #expect(dependency.repository.savedTodos.map(\.title) == ["milk", "bread", "eggs"])
        #expect(
            interactor.reactor.currentState.list.todos.first { $0.title == "eggs" }?.id == ids[1],
            "the same todo, not a copy")
        await acting {
            interactor.didToggle(ids[0])
            interactor.didToggle(ids[2])
            interactor.didClearCompleted()
        }
        #expect(presenter.lastNotice == .success("Cleared 2 done. Press u to undo."))
        await acting { interactor.didUndo() }
        #expect(presenter.presented.last?.visible.count == 3)
        #expect(presenter.presented.last?.visible.filter(\.isDone).count == 2, "they come back done")
        await acting { interactor.didUndo() }
        #expect(presenter.lastNotice == .failure("Nothing to undo."))
        interactor.deactivate()
    }

    @Test("the filter is kept in the screen preferences and read back by the next reactor")
    func filterIsKept() async throws {
        let preferences = InMemoryProfileStore()
        let reactor = TodoReactor(repository: dependency.repository, preferences: preferences)
        await reactor.send(.setFilter(.active)).reduced()
        #expect(try await preferences.loadPreferences().filter == .active)
        let next = TodoReactor(repository: dependency.repository, preferences: preferences)
        await next.send(.load).reduced()
        #expect(next.currentState.filter == .active)
        preferences.failSaves(with: .unwritable(reason: "read-only"))
        await reactor.send(.setFilter(.done)).reduced()
        #expect(reactor.currentState.filter == .done, "the screen still changes")
        #expect(reactor.currentState.notice.value?.kind == .failure)
    }

    @Test("filter shows only matching todos; a refused change leaves a status line")
    func filterAndRefusal() async throws {
        await activate()
        let milk = try #require(interactor.reactor.currentState.list.todos.first)
        await acting {
            interactor.didToggle(milk.id)
            interactor.didSelectFilter(.done)
        }
        #expect(presenter.presented.last?.visible.map(\.title) == ["milk"])
        await acting { interactor.didRename(milk.id, to: "   ") }
        #expect(presenter.lastNotice?.text == "A todo needs a title.")
        dependency.repository.failSaves(with: .unwritable(reason: "disk full"))
        await acting { interactor.didToggle(milk.id) }
        #expect(presenter.lastNotice?.text == "Not saved: could not write (disk full)")
        #expect(presenter.presented.last?.visible.isEmpty == true, "the change stays in memory")
        interactor.deactivate()
    }

    @Test("AddTodo's title is added by this reactor, which detaches AddTodo and says so")
    func addTodoFlow() async throws {
        await activate()
        interactor.didTapNew()
        #expect(router.routeToAddTodoCalls == 1)
        await acting { interactor.addTodoDidSubmit(title: "jam") }
        #expect(router.detachAddTodoCalls == 1)
        #expect(presenter.lastNotice?.text == "Added \"jam\".")
        #expect(presenter.presented.last?.visible.last?.title == "jam")
        #expect(dependency.repository.savedTodos.last?.title == "jam")
        interactor.addTodoDidCancel()
        #expect(router.detachAddTodoCalls == 2)
        interactor.deactivate()
    }

    @Test("a title that cannot be saved is still listed, with the reason, not a guess at which todo it was")
    func addNotSaved() async {
        await activate()
        dependency.repository.failSaves(with: .unwritable(reason: "read-only"))
        await acting { interactor.addTodoDidSubmit(title: "jam") }
        #expect(presenter.presented.last?.visible.map(\.title) == ["milk", "eggs", "bread", "jam"])
        #expect(presenter.lastNotice?.text == "Not saved: could not write (read-only)")
        interactor.deactivate()
    }

    @Test(
        "a save that waits holds the actions sent after it: each state follows the one before, none is overwritten"
    )
    func slowSave() async throws {
        await activate()
        let milk = try #require(interactor.reactor.currentState.list.todos.first)
        let repository = dependency.repository
        repository.holdSaves()
        let toggled = interactor.reactor.send(.toggle(milk.id))
        let filtered = interactor.reactor.send(.setFilter(.active))
        try await repository.untilSavesAreHeld()
        #expect(!toggled.isReduced && !filtered.isReduced)
        #expect(presenter.presented.last?.list.todos.first?.isDone == false, "a change shows once saved")
        let shownWhileWaiting = presenter.presented.count
        repository.releaseSaves()
        await filtered.reduced()
        let after = presenter.presented[shownWhileWaiting...]
        let toggleShown = try #require(after.firstIndex { $0.list.todos.first?.isDone == true })
        let filterShown = try #require(after.firstIndex { $0.filter == .active })
        #expect(toggleShown < filterShown, "the toggle's late result comes before the filter, not over it")
        #expect(presenter.presented.last?.visible.map(\.title) == ["eggs", "bread"])
        #expect(presenter.lastNotice == Notice("Showing active (2)."))

        // A save that waits and then fails still says so, after the actions before it.
        repository.holdSaves()
        repository.failSaves(with: .unwritable(reason: "disk full"))
        let renamed = interactor.reactor.send(.rename(milk.id, "oat milk"))
        try await repository.untilSavesAreHeld()
        repository.releaseSaves()
        await renamed.reduced()
        #expect(presenter.lastNotice?.text == "Not saved: could not write (disk full)")
        #expect(
            interactor.reactor.currentState.list.todos.first?.title == "oat milk",
            "the change stays in memory")
        #expect(repository.savedTodos.first?.title == "milk")
        interactor.deactivate()
    }

    @Test("an inactive interactor shows nothing, and shows the current list when it comes back")
    func inactiveShowsNothing() async throws {
        await activate()
        interactor.deactivate()
        let shown = presenter.presented.count
        let milk = try #require(interactor.reactor.currentState.list.todos.first)
        await acting { interactor.didToggle(milk.id) }
        #expect(presenter.presented.count == shown)
        await activate()
        #expect(presenter.presented.last?.list.todos.first?.isDone == true)
        interactor.deactivate()
    }
}
