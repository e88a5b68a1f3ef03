import AddTodo
import Domain
import Foundation
import RIBs

/// What Todo's router offers.
@MainActor
public protocol TodoRouting: ViewableRouting {
    /// Pushes AddTodo on the list's navigation controller.
    func routeToAddTodo()
    /// Pops and detaches AddTodo, when it is attached.
    func detachAddTodo()
}

/// What Todo tells its parent; nothing yet.
@MainActor
public protocol TodoListener: AnyObject {}

/// What the list shows.
@MainActor
protocol TodoPresentable: Presentable {
    var listener: (any TodoPresentableListener)? { get set }
    func present(_ state: TodoReactor.State)
}

/// Owns the list's ``TodoReactor``: the view's taps become actions, and each published state
/// goes to the view. Every action sent is an activity until its state is published.
@MainActor
final class TodoInteractor: PresentableInteractor<any TodoPresentable>, TodoInteractable,
    TodoPresentableListener
{
    weak var router: (any TodoRouting)?
    weak var listener: (any TodoListener)?
    let reactor: TodoReactor
    private let activity: ActivityTracker
    private var sentActions = 0
    private var settledActions = 0

    init(presenter: any TodoPresentable, reactor: TodoReactor, activity: ActivityTracker) {
        self.reactor = reactor
        self.activity = activity
        super.init(presenter: presenter)
        presenter.listener = self
    }

    override func didBecomeActive() {
        super.didBecomeActive()
        presenter.present(reactor.currentState)
        task { [weak self, reactor] in
            for await state in reactor.state {
                self?.show(state)
            }
        }
    }

    override func willResignActive() {
        super.willResignActive()
        // Actions whose state will never be shown are not under way any more.
        for _ in settledActions..<max(settledActions, sentActions) { activity.end() }
        settledActions = sentActions
    }

    private func show(_ state: TodoReactor.State) {
        presenter.present(state)
        while settledActions < min(state.settledActions, sentActions) {
            settledActions += 1
            activity.end()
        }
    }

    private func send(_ action: TodoReactor.Action) {
        sentActions += 1
        activity.begin()
        reactor.send(action)
    }

    // MARK: TodoPresentableListener

    func didTapNew() { router?.routeToAddTodo() }
    func didToggle(_ id: UUID) { send(.toggle(id)) }
    func didRename(_ id: UUID, to title: String) { send(.rename(id, title)) }
    func didDelete(_ id: UUID) { send(.delete(id)) }
    func didClearCompleted() { send(.clearCompleted) }
    func didSelectFilter(_ filter: TodoFilter) { send(.setFilter(filter)) }

    // MARK: AddTodoListener

    func addTodoDidSave(_ todo: Todo, warning: String?) {
        router?.detachAddTodo()
        send(.reload(status: warning ?? "Added \"\(todo.title)\"."))
    }

    func addTodoDidCancel() {
        router?.detachAddTodo()
    }
}
