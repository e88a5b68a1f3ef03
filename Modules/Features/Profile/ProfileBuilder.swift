import Domain
import RIBs

/// What Profile needs from its parent.
@MainActor
public protocol ProfileDependency: Dependency {
    /// Where the name and bio are kept.
    var profileRepository: any ProfileRepository { get }
    /// The flavor's photo API.
    var petPhotoRepository: any PetPhotoRepository { get }
    /// The favourite photos, kept on disk.
    var favoritePhotos: FavoritePhotos { get }
}

/// Profile's scope: everything it uses comes from its parent's dependency.
public final class ProfileComponent: Component<any ProfileDependency> {}

/// What Profile's parent builds it with.
@MainActor
public protocol ProfileBuildable: Buildable {
    /// Builds the profile RIB, ready for its parent to attach; `listener` is the parent's
    /// interactor.
    func build(withListener listener: any ProfileListener) -> any ProfileRouting
}

/// Builds the Profile RIB from its parent's dependency.
@MainActor
public final class ProfileBuilder: Builder<any ProfileDependency>, ProfileBuildable {
    public override init(dependency: any ProfileDependency) {
        super.init(dependency: dependency)
    }

    /// Wires the reactor over the parent's repositories to the interactor and the hosted
    /// declarative screen.
    public func build(withListener listener: any ProfileListener) -> any ProfileRouting {
        let component = ProfileComponent(dependency: dependency)
        let viewController = ProfileViewController()
        let reactor = ProfileReactor(
            profiles: component.dependency.profileRepository, photos: component.dependency.petPhotoRepository,
            favorites: component.dependency.favoritePhotos)
        let interactor = ProfileInteractor(
            presenter: viewController, reactor: reactor, photos: component.dependency.petPhotoRepository)
        interactor.listener = listener
        return ProfileRouter(interactor: interactor, viewController: viewController)
    }
}
