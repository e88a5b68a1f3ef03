import AddTodo
import HeadlessUI
import RIBs
import RIBsHeadlessUI

/// What Todo's router needs of its interactor.
@MainActor
protocol TodoInteractable: Interactable, AddTodoListener {
    var router: (any TodoRouting)? { get set }
    var listener: (any TodoListener)? { get set }
}

/// What Todo's router needs of its view controller: the navigation controller it sits in.
@MainActor
protocol TodoViewControllable: ViewControllable {
    var navigationController: NavigationController? { get }
}

/// Attaches AddTodo on "new" and detaches it on save, on cancel and on back.
@MainActor
final class TodoRouter: ViewableRouter<any TodoInteractable, any TodoViewControllable>, TodoRouting {
    private let addTodoBuilder: any AddTodoBuildable
    private(set) var addTodo: (any AddTodoRouting)?

    init(
        interactor: any TodoInteractable, viewController: any TodoViewControllable,
        addTodoBuilder: any AddTodoBuildable
    ) {
        self.addTodoBuilder = addTodoBuilder
        super.init(interactor: interactor, viewController: viewController)
        interactor.router = self
    }

    func routeToAddTodo() {
        guard addTodo == nil, let navigation = viewController.navigationController else { return }
        let child = addTodoBuilder.build(withListener: interactor)
        addTodo = child
        // Back detaches the child in RIBsHeadlessUI; only the reference is left to drop here.
        attachChild(child, pushingOn: navigation) { [weak self] in self?.addTodo = nil }
    }

    func detachAddTodo() {
        guard let child = addTodo else { return }
        addTodo = nil
        if let navigation = viewController.navigationController {
            detachChild(child, poppingFrom: navigation)
        } else {
            detachChild(child)
        }
    }
}
