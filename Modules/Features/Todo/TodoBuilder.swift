import AddTodo
import Domain
import RIBs

/// What Todo needs from its parent.
@MainActor
public protocol TodoDependency: Dependency {
    /// Where the todos are kept; Todo's reactor reads them and records each change there.
    var todoRepository: any TodoRepository { get }
    /// Where the list's filter is kept between launches.
    var screenPreferences: any ScreenPreferencesRepository { get }
}

/// Todo's scope. It owns the todos: only this RIB's reactor reads and changes them. It is also
/// AddTodo's dependency (`TodoComponent+AddTodo.swift`).
public final class TodoComponent: Component<any TodoDependency> {}

/// What Todo's parent builds it with.
@MainActor
public protocol TodoBuildable: Buildable {
    /// Builds the list RIB, ready for its parent to attach; `listener` is the parent's interactor.
    func build(withListener listener: any TodoListener) -> any TodoRouting
}

/// Builds the Todo RIB from its parent's dependency, with AddTodo's builder over its component.
@MainActor
public final class TodoBuilder: Builder<any TodoDependency>, TodoBuildable {
    public override init(dependency: any TodoDependency) {
        super.init(dependency: dependency)
    }

    /// Wires the list's reactor, over the todo repository, to the interactor and the table.
    public func build(withListener listener: any TodoListener) -> any TodoRouting {
        let component = TodoComponent(dependency: dependency)
        let viewController = TodoViewController()
        let reactor = TodoReactor(
            repository: component.dependency.todoRepository,
            preferences: component.dependency.screenPreferences)
        let interactor = TodoInteractor(presenter: viewController, reactor: reactor)
        interactor.listener = listener
        return TodoRouter(
            interactor: interactor, viewController: viewController,
            addTodoBuilder: AddTodoBuilder(dependency: component))
    }
}
