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
}

/// The name and bio (in UserDefaults), the flavor's pet photo and the favourites. A failed
/// request becomes a status line; the rest of the app goes on.
@MainActor
final class ProfileInteractor: PresentableInteractor<any ProfilePresentable>, ProfileInteractable,
    ProfilePresentableListener
{
    weak var router: (any ProfileRouting)?
    weak var listener: (any ProfileListener)?
    private let profiles: any ProfileRepository
    private let photos: any PetPhotoRepository
    private let favorites: FavoritePhotos
    private let activity: ActivityTracker
    private var loading: Task<Void, Never>?
    private(set) var state: ProfileState {
        didSet { presenter.present(state) }
    }

    init(
        presenter: any ProfilePresentable, profiles: any ProfileRepository, photos: any PetPhotoRepository,
        favorites: FavoritePhotos, activity: ActivityTracker
    ) {
        self.profiles = profiles
        self.photos = photos
        self.favorites = favorites
        self.activity = activity
        state = ProfileState(pet: photos.pet, favoriteCount: favorites.photos.count)
        super.init(presenter: presenter)
        presenter.listener = self
    }

    override func didBecomeActive() {
        super.didBecomeActive()
        do {
            state.profile = try profiles.loadProfile()
        } catch {
            state.status = "Profile: \(error)"
        }
        if let error = favorites.loadError { state.status = "Favourites: \(error)" }
        didTapRefresh()
    }

    // MARK: ProfilePresentableListener

    func didTapRefresh() {
        loading?.cancel()
        state.isLoading = true
        activity.begin()
        loading = task { [weak self, photos] in
            let result: Result<PetPhoto, PetPhotoError>
            do throws(PetPhotoError) {
                result = .success(try await photos.randomPhoto())
            } catch {
                result = .failure(error)
            }
            self?.finishLoading(result)
        }
    }

    private func finishLoading(_ result: Result<PetPhoto, PetPhotoError>) {
        defer { activity.end() }
        if case .failure(.cancelled) = result { return }
        var next = state
        next.isLoading = false
        switch result {
        case .success(let photo):
            next.photo = photo
            next.isFavorite = favorites.contains(photo)
            next.status = nil
        case .failure(let error):
            next.status = error.description
        }
        state = next
    }

    func didTapFavorite() {
        guard let photo = state.photo else {
            state.status = "There is no photo to keep yet; try `refresh`."
            return
        }
        do {
            state.isFavorite = try favorites.toggle(photo)
            state.status = state.isFavorite ? "Kept as a favourite." : "Removed from favourites."
        } catch {
            state.isFavorite = favorites.contains(photo)
            state.status = "Favourites not saved: \(error)"
        }
        state.favoriteCount = favorites.photos.count
    }

    func didChangeName(_ name: String) {
        save { $0.name = name }
    }

    func didChangeBio(_ bio: String) {
        save { $0.bio = bio }
    }

    private func save(_ change: (inout Profile) -> Void) {
        var profile = state.profile
        change(&profile)
        state.profile = profile
        do {
            try profiles.saveProfile(profile)
            state.status = "Saved."
        } catch {
            state.status = "Profile not saved: \(error)"
        }
    }
}
