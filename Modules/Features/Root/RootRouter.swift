import HeadlessUI
import Profile
import RIBs
import RIBsHeadlessUI
import Todo

/// What the root router needs of its interactor: to listen to both children.
@MainActor
protocol RootInteractable: Interactable, TodoListener, ProfileListener {
    var router: (any RootRouting)? { get set }
}

/// What the root router needs of its view controller.
@MainActor
protocol RootViewControllable: ViewControllable {
    /// Shows Todo (in a navigation controller) and Profile as the two tabs.
    func showTabs(todo: ViewController, profile: ViewController)
}

/// Attaches Todo and Profile when it loads; they stay for the app's life.
@MainActor
final class RootRouter: LaunchRouter<any RootInteractable, any RootViewControllable>, RootRouting {
    private let todoBuilder: any TodoBuildable
    private let profileBuilder: any ProfileBuildable

    init(
        interactor: any RootInteractable, viewController: any RootViewControllable,
        todoBuilder: any TodoBuildable, profileBuilder: any ProfileBuildable
    ) {
        self.todoBuilder = todoBuilder
        self.profileBuilder = profileBuilder
        super.init(interactor: interactor, viewController: viewController)
        interactor.router = self
    }

    override func didLoad() {
        super.didLoad()
        let todo = todoBuilder.build(withListener: interactor)
        let profile = profileBuilder.build(withListener: interactor)
        guard let todoController = todo.headlessViewController,
            let profileController = profile.headlessViewController
        else { return }
        viewController.showTabs(todo: todoController, profile: profileController)
        attachChild(todo)
        attachChild(profile)
    }
}
