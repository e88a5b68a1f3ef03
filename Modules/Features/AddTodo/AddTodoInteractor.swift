import Domain
import RIBs

/// What AddTodo's router offers.
@MainActor
public protocol AddTodoRouting: ViewableRouting {}

/// What AddTodo tells its parent. Going back is not here: the parent's router detaches AddTodo
/// itself when the user goes back (RIBsHeadlessUI's `attachChild(_:pushingOn:onBack:)`).
@MainActor
public protocol AddTodoListener: AnyObject {
    /// A todo was added to the book.
    func addTodoDidSave(_ todo: Todo, warning: String?)
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

/// Adds a todo to the shared book.
@MainActor
final class AddTodoInteractor: PresentableInteractor<any AddTodoPresentable>, AddTodoInteractable,
    AddTodoPresentableListener
{
    weak var router: (any AddTodoRouting)?
    weak var listener: (any AddTodoListener)?
    private let book: TodoBook

    init(presenter: any AddTodoPresentable, book: TodoBook) {
        self.book = book
        super.init(presenter: presenter)
        presenter.listener = self
    }

    func didTapSave(title: String) {
        do {
            let todo = try book.add(title: title)
            listener?.addTodoDidSave(todo, warning: nil)
        } catch .notSaved(let error) {
            // Added in memory: the list shows it, and says it is not saved yet.
            if let todo = book.list.todos.last {
                listener?.addTodoDidSave(todo, warning: TodoError.notSaved(error).description)
            }
        } catch {
            presenter.showProblem(error.description)
        }
    }

    func didTapCancel() {
        listener?.addTodoDidCancel()
    }
}
