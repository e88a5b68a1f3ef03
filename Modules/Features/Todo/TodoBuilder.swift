import AddTodo
import Domain
import RIBs

/// What Todo needs from its parent.
@MainActor
public protocol TodoDependency: Dependency {
    /// The todos, kept on disk.
    var todoBook: TodoBook { get }
    /// Where the screen reports work still under way.
    var activity: ActivityTracker { get }
}

/// Todo's scope; it also provides what AddTodo needs (`TodoComponent+AddTodo.swift`).
public final class TodoComponent: Component<any TodoDependency> {
    /// The parent's book, which AddTodo shares.
    @MainActor public var todoBook: TodoBook { dependency.todoBook }
    /// The parent's tracker.
    @MainActor var activity: ActivityTracker { dependency.activity }
}

/// Builds the Todo RIB.
@MainActor
public protocol TodoBuildable: Buildable {
    /// Builds the RIB.
    func build(withListener listener: any TodoListener) -> any TodoRouting
}

/// Builds the Todo RIB from its parent's dependency.
@MainActor
public final class TodoBuilder: Builder<any TodoDependency>, TodoBuildable {
    /// Creates the builder.
    public override init(dependency: any TodoDependency) {
        super.init(dependency: dependency)
    }

    /// Builds the component, the reactor, the view controller, the interactor and the router,
    /// with AddTodo's builder over this RIB's component.
    public func build(withListener listener: any TodoListener) -> any TodoRouting {
        let component = TodoComponent(dependency: dependency)
        let viewController = TodoViewController()
        let interactor = TodoInteractor(
            presenter: viewController, reactor: TodoReactor(book: component.todoBook),
            activity: component.activity)
        interactor.listener = listener
        return TodoRouter(
            interactor: interactor, viewController: viewController,
            addTodoBuilder: AddTodoBuilder(dependency: component))
    }
}
