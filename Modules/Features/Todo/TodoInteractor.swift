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
    /// Posts `notice` to the status line; `nil` clears this screen's last.
    func post(_ notice: Notice?)
}

/// Owns the list's ``TodoReactor``: the view's taps and AddTodo's title become actions, and
/// each state the reactor publishes goes to the view while the RIB is active, with each notice
/// it sets posted once.
@MainActor
final class TodoInteractor: PresentableInteractor<any TodoPresentable>, TodoInteractable,
    TodoPresentableListener
{
    weak var router: (any TodoRouting)?
    weak var listener: (any TodoListener)?
    let reactor: TodoReactor

    init(presenter: any TodoPresentable, reactor: TodoReactor) {
        self.reactor = reactor
        super.init(presenter: presenter)
        presenter.listener = self
    }

    override func didBecomeActive() {
        super.didBecomeActive()
        // A synchronous sink: a state is on the view before its action counts as reduced.
        reactor.state.sink { [weak self] state in
            MainActor.assumeIsolated { self?.presenter.present(state) }
        }
        .cancelOnDeactivate(interactor: self)
        reactor.pulse(\.notice) { [weak self] notice in self?.presenter.post(notice) }
            .cancelOnDeactivate(interactor: self)
        reactor.send(.load)
    }

    // MARK: TodoPresentableListener

    func didTapNew() { router?.routeToAddTodo() }
    func didToggle(_ id: UUID) { reactor.send(.toggle(id)) }
    func didRename(_ id: UUID, to title: String) { reactor.send(.rename(id, title)) }
    func didDelete(_ id: UUID) { reactor.send(.delete(id)) }
    func didClearCompleted() { reactor.send(.clearCompleted) }
    func didUndo() { reactor.send(.undo) }
    func didSelectFilter(_ filter: TodoFilter) { reactor.send(.setFilter(filter)) }

    // MARK: AddTodoListener

    func addTodoDidSubmit(title: String) {
        router?.detachAddTodo()
        reactor.send(.add(title: title))
    }

    func addTodoDidCancel() {
        router?.detachAddTodo()
    }
}
