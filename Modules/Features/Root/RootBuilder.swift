import Domain
import HeadlessUI
import Profile
import RIBs
import Todo

/// What the root RIB needs from the app: everything its children need, which the app's
/// component makes once (`shared { }`) and hands down.
@MainActor
public protocol RootDependency: Dependency {
    /// The app's name, shown at the right of the tab bar.
    var appName: String { get }
    /// The flavor's accent colour, for the app's name.
    var accentColor: Color { get }
    /// The todos, kept on disk.
    var todoBook: TodoBook { get }
    /// Where the profile is kept.
    var profileRepository: any ProfileRepository { get }
    /// The flavor's photo API.
    var petPhotoRepository: any PetPhotoRepository { get }
    /// The favourite photos.
    var favoritePhotos: FavoritePhotos { get }
    /// Work still under way.
    var activity: ActivityTracker { get }
}

/// The root scope. It passes the app's objects on to Todo and Profile
/// (`RootComponent+Todo.swift`, `RootComponent+Profile.swift`).
public final class RootComponent: Component<any RootDependency> {
    /// The app's book, for Todo.
    @MainActor public var todoBook: TodoBook { dependency.todoBook }
    /// The app's tracker, for Todo and Profile.
    @MainActor public var activity: ActivityTracker { dependency.activity }
}

/// Builds the root RIB.
@MainActor
public protocol RootBuildable: Buildable {
    /// Builds the RIB to launch.
    func build() -> any LaunchRouting
}

/// Builds the root RIB: a tab bar of Todo and Profile.
@MainActor
public final class RootBuilder: Builder<any RootDependency>, RootBuildable {
    /// Creates the builder over the app's dependency.
    public override init(dependency: any RootDependency) {
        super.init(dependency: dependency)
    }

    /// Builds the root view controller, interactor and router, with the children's builders.
    public func build() -> any LaunchRouting {
        let component = RootComponent(dependency: dependency)
        let viewController = RootViewController(appName: dependency.appName, accent: dependency.accentColor)
        let interactor = RootInteractor(presenter: viewController)
        return RootRouter(
            interactor: interactor, viewController: viewController,
            todoBuilder: TodoBuilder(dependency: component),
            profileBuilder: ProfileBuilder(dependency: component))
    }
}
