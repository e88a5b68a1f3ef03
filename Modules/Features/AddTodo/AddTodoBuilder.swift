import RIBs

/// What AddTodo needs from its parent: nothing. It is a form; its parent owns the todos and
/// adds the one the form reports (`TodoComponent+AddTodo.swift` conforms Todo's component).
@MainActor
public protocol AddTodoDependency: Dependency {}

/// AddTodo's scope: empty, as the form needs nothing from outside.
public final class AddTodoComponent: Component<any AddTodoDependency> {}

/// What AddTodo's parent builds it with.
@MainActor
public protocol AddTodoBuildable: Buildable {
    /// Builds the RIB; `listener` hears the title the user submitted, or that they cancelled.
    func build(withListener listener: any AddTodoListener) -> any AddTodoRouting
}

/// Builds the AddTodo RIB from its parent's dependency.
@MainActor
public final class AddTodoBuilder: Builder<any AddTodoDependency>, AddTodoBuildable {
    public override init(dependency: any AddTodoDependency) {
        super.init(dependency: dependency)
    }

    /// Wires the form's interactor to its view controller and `listener`.
    public func build(withListener listener: any AddTodoListener) -> any AddTodoRouting {
        let viewController = AddTodoViewController()
        let interactor = AddTodoInteractor(presenter: viewController)
        interactor.listener = listener
        return AddTodoRouter(interactor: interactor, viewController: viewController)
    }
}
