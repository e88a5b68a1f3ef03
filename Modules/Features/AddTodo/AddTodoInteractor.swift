import Domain
import RIBs

/// What AddTodo's router offers.
@MainActor
public protocol AddTodoRouting: ViewableRouting {}

/// What AddTodo tells its parent. Going back is not here: the parent's router detaches AddTodo
/// itself when the user goes back (RIBsHeadlessUI's `attachChild(_:pushingOn:onBack:)`).
@MainActor
public protocol AddTodoListener: AnyObject {
    /// The user submitted `title`, already checked by ``Domain/TodoTitle``; the listener adds it.
    func addTodoDidSubmit(title: String)
    /// The user cancelled.
    func addTodoDidCancel()
}

/// What the screen shows.
@MainActor
protocol AddTodoPresentable: Presentable {
    var listener: (any AddTodoPresentableListener)? { get set }
    /// Shows why the title was refused; `nil` clears it.
    func showProblem(_ problem: String?)
}

/// Checks the title and hands it to the listener; a refused title stays on the screen with the
/// reason. It never touches the todos: their one owner is the parent's reactor.
@MainActor
final class AddTodoInteractor: PresentableInteractor<any AddTodoPresentable>, AddTodoInteractable,
    AddTodoPresentableListener
{
    weak var router: (any AddTodoRouting)?
    weak var listener: (any AddTodoListener)?

    override init(presenter: any AddTodoPresentable) {
        super.init(presenter: presenter)
        presenter.listener = self
    }

    func didTapSave(title: String) {
        do {
            listener?.addTodoDidSubmit(title: try TodoTitle.validated(title))
        } catch {
            presenter.showProblem(error.description)
        }
    }

    func didTapCancel() {
        listener?.addTodoDidCancel()
    }
}
