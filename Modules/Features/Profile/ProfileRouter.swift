import RIBs

/// What Profile's router needs of its interactor.
@MainActor
protocol ProfileInteractable: Interactable {
    var router: (any ProfileRouting)? { get set }
    var listener: (any ProfileListener)? { get set }
}

/// What Profile's router needs of its view controller.
@MainActor
protocol ProfileViewControllable: ViewControllable {}

/// Profile has no children.
@MainActor
final class ProfileRouter: ViewableRouter<any ProfileInteractable, any ProfileViewControllable>,
    ProfileRouting
{
    override init(interactor: any ProfileInteractable, viewController: any ProfileViewControllable) {
        super.init(interactor: interactor, viewController: viewController)
        interactor.router = self
    }
}
