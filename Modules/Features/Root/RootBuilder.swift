import Domain
import HeadlessUI
import Profile
import RIBs
import TerminalCore
import Todo

/// What the root RIB needs from the app: everything its children need, which the app's
/// component makes once (`shared { }`) and hands down.
@MainActor
public protocol RootDependency: Dependency {
    /// The app's name, shown at the right of the tab bar.
    var appName: String { get }
    /// The flavor's accent colour, for the app's name.
    var accentColor: Color { get }
    /// Where the todos are kept; Todo opens them.
    var todoRepository: any TodoRepository { get }
    /// Where the profile is kept.
    var profileRepository: any ProfileRepository { get }
    /// The flavor's photo API.
    var petPhotoRepository: any PetPhotoRepository { get }
    /// The favourites, handed down to the Profile tab, whose reactor is their one owner.
    var favoritePhotos: FavoritePhotos { get }
    /// Where the tab and the list's filter are kept between launches.
    var screenPreferences: any ScreenPreferencesRepository { get }
}

/// The root scope. It passes the app's objects on to Todo and Profile
/// (`RootComponent+Todo.swift`, `RootComponent+Profile.swift`).
public final class RootComponent: Component<any RootDependency> {}

/// What the app builds the root RIB with.
@MainActor
public protocol RootBuildable: Buildable {
    /// Builds the RIB the app launches into its window.
    func build() -> any LaunchRouting
}

/// Builds the root RIB: a tab bar of Todo and Profile.
@MainActor
public final class RootBuilder: Builder<any RootDependency>, RootBuildable {
    public override init(dependency: any RootDependency) {
        super.init(dependency: dependency)
    }

    /// Wires the tab bar, the root interactor and the router with Todo's and Profile's builders
    /// over this RIB's component.
    public func build() -> any LaunchRouting {
        let component = RootComponent(dependency: dependency)
        let viewController = RootViewController(appName: dependency.appName, accent: dependency.accentColor)
        let interactor = RootInteractor(
            presenter: viewController, reactor: RootReactor(preferences: dependency.screenPreferences))
        return RootRouter(
            interactor: interactor, viewController: viewController,
            todoBuilder: TodoBuilder(dependency: component),
            profileBuilder: ProfileBuilder(dependency: component))
    }
}
