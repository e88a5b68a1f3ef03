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
    /// Where the screen reports work still under way.
    var activity: ActivityTracker { get }
}

/// Profile's scope.
public final class ProfileComponent: Component<any ProfileDependency> {}

/// Builds the Profile RIB.
@MainActor
public protocol ProfileBuildable: Buildable {
    /// Builds the RIB.
    func build(withListener listener: any ProfileListener) -> any ProfileRouting
}

/// Builds the Profile RIB from its parent's dependency.
@MainActor
public final class ProfileBuilder: Builder<any ProfileDependency>, ProfileBuildable {
    /// Creates the builder.
    public override init(dependency: any ProfileDependency) {
        super.init(dependency: dependency)
    }

    /// Builds the view controller, interactor and router.
    public func build(withListener listener: any ProfileListener) -> any ProfileRouting {
        let component = ProfileComponent(dependency: dependency)
        let viewController = ProfileViewController()
        let interactor = ProfileInteractor(
            presenter: viewController, profiles: component.dependency.profileRepository,
            photos: component.dependency.petPhotoRepository, favorites: component.dependency.favoritePhotos,
            activity: component.dependency.activity)
        interactor.listener = listener
        return ProfileRouter(interactor: interactor, viewController: viewController)
    }
}
