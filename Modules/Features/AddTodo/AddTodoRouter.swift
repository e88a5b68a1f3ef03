import RIBs

/// What AddTodo's router needs of its interactor.
@MainActor
protocol AddTodoInteractable: Interactable {
    var router: (any AddTodoRouting)? { get set }
    var listener: (any AddTodoListener)? { get set }
}

/// What AddTodo's router needs of its view controller.
@MainActor
protocol AddTodoViewControllable: ViewControllable {}

/// AddTodo has no children.
@MainActor
final class AddTodoRouter: ViewableRouter<any AddTodoInteractable, any AddTodoViewControllable>,
    AddTodoRouting
{
    override init(interactor: any AddTodoInteractable, viewController: any AddTodoViewControllable) {
        super.init(interactor: interactor, viewController: viewController)
        interactor.router = self
    }
}
