import Domain
import RIBs

/// What AddTodo needs from its parent: the shared book it adds to. Todo's component provides it
/// (`TodoComponent+AddTodo.swift`), as the seeds' children get their streams from the parent's
/// component.
@MainActor
public protocol AddTodoDependency: Dependency {
    /// The todos, shared with the list.
    var todoBook: TodoBook { get }
}

/// AddTodo's scope.
public final class AddTodoComponent: Component<any AddTodoDependency> {
    /// The parent's book.
    @MainActor var todoBook: TodoBook { dependency.todoBook }
}

/// Builds the AddTodo RIB.
@MainActor
public protocol AddTodoBuildable: Buildable {
    /// Builds the RIB; `listener` hears when a todo was saved or the screen was cancelled.
    func build(withListener listener: any AddTodoListener) -> any AddTodoRouting
}

/// Builds the AddTodo RIB from its parent's dependency.
@MainActor
public final class AddTodoBuilder: Builder<any AddTodoDependency>, AddTodoBuildable {
    /// Creates the builder.
    public override init(dependency: any AddTodoDependency) {
        super.init(dependency: dependency)
    }

    /// Builds the component, view controller, interactor and router.
    public func build(withListener listener: any AddTodoListener) -> any AddTodoRouting {
        let component = AddTodoComponent(dependency: dependency)
        let viewController = AddTodoViewController()
        let interactor = AddTodoInteractor(presenter: viewController, book: component.todoBook)
        interactor.listener = listener
        return AddTodoRouter(interactor: interactor, viewController: viewController)
    }
}
