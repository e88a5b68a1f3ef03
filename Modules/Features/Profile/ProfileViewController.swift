import DeclarativeUI
import HeadlessUI
import RIBs
import RIBsHeadlessUI

/// What the screen reports to the interactor.
@MainActor
protocol ProfilePresentableListener: AnyObject {
    func didTapRefresh()
    func didTapFavorite()
    func didChangeName(_ name: String)
    func didChangeBio(_ bio: String)
}

/// Hosts ``ProfileScreen``. Commands: `refresh`, `fav`, `name TEXT`, `bio TEXT`.
@MainActor
final class ProfileViewController: HostingController<ProfileScreen>, ProfilePresentable,
    ProfileViewControllable
{
    weak var listener: (any ProfilePresentableListener)?

    init() {
        super.init(rootElement: ProfileScreen(state: ProfileState(pet: .dog), onRefresh: {}, onFavorite: {}))
        title = "Profile"
        tabBarItem.title = "Profile"
    }

    func present(_ state: ProfileState) {
        rootElement = ProfileScreen(
            state: state,
            onRefresh: { [weak self] in self?.listener?.didTapRefresh() },
            onFavorite: { [weak self] in self?.listener?.didTapFavorite() })
    }

    override func handle(_ command: TerminalCommand) -> CommandResult {
        switch command.name {
        case "refresh": listener?.didTapRefresh()
        case "fav": listener?.didTapFavorite()
        case "name": listener?.didChangeName(command.text())
        case "bio": listener?.didChangeBio(command.text())
        default: return .notHandled
        }
        return .handled
    }
}
