import Domain
import RIBs

/// What Profile's router offers.
@MainActor
public protocol ProfileRouting: ViewableRouting {}

/// What Profile tells its parent; nothing yet.
@MainActor
public protocol ProfileListener: AnyObject {}

/// What the screen shows.
@MainActor
protocol ProfilePresentable: Presentable {
    var listener: (any ProfilePresentableListener)? { get set }
    func present(_ state: ProfileState)
    /// Posts `notice` to the status line; `nil` clears this screen's last. A notice posted
    /// while the screen is off shows when it comes on.
    func post(_ notice: Notice?)
}

/// Owns the profile's ``ProfileReactor``: activation loads the profile, the screen's first
/// appearance asks for a photo, the view's taps become actions, and each state goes to the view
/// while the RIB is active, with each notice the reactor sets posted once.
///
/// The photo waits for the screen, as a UIKit screen starts its request in `viewDidAppear`: an
/// app that opens on its Todo tab sends no request it may never show, and its first frame never
/// waits for the network.
@MainActor
final class ProfileInteractor: PresentableInteractor<any ProfilePresentable>, ProfileInteractable,
    ProfilePresentableListener
{
    weak var router: (any ProfileRouting)?
    weak var listener: (any ProfileListener)?
    let reactor: ProfileReactor
    private var hasAppeared = false
    private var hasAskedForPhoto = false

    init(presenter: any ProfilePresentable, reactor: ProfileReactor) {
        self.reactor = reactor
        super.init(presenter: presenter)
        presenter.listener = self
    }

    override func didBecomeActive() {
        super.didBecomeActive()
        // A synchronous sink: a state is on the view before its action counts as reduced.
        reactor.state.sink { [weak self] state in
            MainActor.assumeIsolated { self?.presenter.present(state) }
        }
        .cancelOnDeactivate(interactor: self)
        reactor.pulse(\.notice) { [weak self] notice in self?.presenter.post(notice) }
            .cancelOnDeactivate(interactor: self)
        reactor.send(.load)
        if hasAppeared { askForFirstPhoto() }
    }

    /// Sends the first `.refresh`, once the RIB is active and its screen has been on.
    private func askForFirstPhoto() {
        guard !hasAskedForPhoto else { return }
        hasAskedForPhoto = true
        reactor.send(.refresh)
    }

    // MARK: ProfilePresentableListener

    func didAppear() {
        hasAppeared = true
        if isActive { askForFirstPhoto() }
    }

    func didTapRefresh() { reactor.send(.refresh) }
    func didTapFavorite() { reactor.send(.toggleFavorite) }
    func didChangeName(_ name: String) { reactor.send(.setName(name)) }
    func didChangeBio(_ bio: String) { reactor.send(.setBio(bio)) }
    func didStepFavorites(by steps: Int) { reactor.send(.browseFavorites(.by(steps))) }
    func didSelectFavorite(at index: Int) { reactor.send(.browseFavorites(.to(index))) }
    func didEndBrowsing() { reactor.send(.browseFavorites(.end)) }
}
