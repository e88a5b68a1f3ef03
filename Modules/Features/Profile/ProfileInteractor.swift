import Domain
import RIBs
import Reactor

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
/// It also owns the photo request: a task of its own, which a newer refresh replaces and
/// deactivation ends, that tells the reactor what came (see ``fetchPhoto()``). In the reactor's
/// queue a request would hold every action sent after it (a name typed meanwhile) until the
/// server answered or the transport gave up.
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
    private let pictures: PetPictures
    /// The photo on its way, if one is: the latest request, the only one whose answer shows;
    /// `nil` once it has told the reactor all it got.
    private(set) var photoFetch: Task<Void, Never>?

    init(presenter: any ProfilePresentable, reactor: ProfileReactor, photos: any PetPhotoRepository) {
        self.reactor = reactor
        pictures = PetPictures(repository: photos)
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

    override func willResignActive() {
        super.willResignActive()
        guard let fetch = photoFetch else { return }
        fetch.cancel()
        photoFetch = nil
        // Sent even when the state is not loading yet: `.photoRequested` may still be queued.
        reactor.send(.photoAbandoned)
        // No photo came: the screen asks again if the RIB comes back with it on.
        if reactor.currentState.photo == nil { hasAskedForPhoto = false }
    }

    /// Cancels the request on its way, if any, and asks for another photo. The request's task
    /// counts among the actions of the command that set it going (``SentActions/task(_:)``), so
    /// a `refresh` line of a script shows the photo it got; a cancelled one says nothing, not
    /// even the transport's "cancelled".
    private func fetchPhoto() {
        photoFetch?.cancel()
        reactor.send(.photoRequested)
        let pictures = self.pictures
        photoFetch = SentActions.task { [weak self] in
            // Cancelled means replaced or deactivated: another fetch, or none, is the owner's now.
            let answer = await pictures.randomPhoto()
            guard !Task.isCancelled else { return }
            self?.reactor.send(.photoArrived(answer))
            if case .success(let photo) = answer {
                let (bitmap, failure) = await pictures.image(of: photo)
                guard !Task.isCancelled else { return }
                self?.reactor.send(.imageArrived(photo, bitmap, failure: failure))
            }
            self?.photoFetch = nil
        }
    }

    /// Asks for the first photo, once the RIB is active and its screen has been on.
    private func askForFirstPhoto() {
        guard !hasAskedForPhoto else { return }
        hasAskedForPhoto = true
        fetchPhoto()
    }

    // MARK: ProfilePresentableListener

    func didAppear() {
        hasAppeared = true
        if isActive { askForFirstPhoto() }
    }

    func didTapRefresh() { fetchPhoto() }
    func didTapFavorite() { reactor.send(.toggleFavorite) }
    func didChangeName(_ name: String) { reactor.send(.setName(name)) }
    func didChangeBio(_ bio: String) { reactor.send(.setBio(bio)) }
    func didStepFavorites(by steps: Int) { reactor.send(.browseFavorites(.by(steps))) }
    func didSelectFavorite(at index: Int) { reactor.send(.browseFavorites(.to(index))) }
    func didEndBrowsing() { reactor.send(.browseFavorites(.end)) }
}
