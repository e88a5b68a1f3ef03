import Domain
import Reactor

/// The profile screen's state machine: the name and bio (in UserDefaults), the flavor's pet
/// photo and the favourites. A failed request or save becomes a status line; the rest of the
/// app goes on.
@MainActor
final class ProfileReactor: Reactor {
    enum Action: Sendable {
        /// Read the stored profile, and say so if it or the favourites could not be read.
        case load
        /// Ask the API for another photo.
        case refresh
        /// Keep the photo as a favourite, or drop it.
        case toggleFavorite
        case setName(String)
        case setBio(String)
    }

    enum Mutation: Sendable {
        case setProfile(Profile)
        case startLoading
        case setPhoto(PetPhoto, isFavorite: Bool)
        case failLoading(PetPhotoError)
        case setFavorite(Bool, count: Int)
        case setStatus(String?)
    }

    let initialState: ProfileState
    let runtime = ReactorRuntime<ProfileReactor>()
    private let profiles: any ProfileRepository
    private let photos: any PetPhotoRepository
    private let favorites: FavoritePhotos

    init(profiles: any ProfileRepository, photos: any PetPhotoRepository, favorites: FavoritePhotos) {
        self.profiles = profiles
        self.photos = photos
        self.favorites = favorites
        initialState = ProfileState(pet: photos.pet, favoriteCount: favorites.photos.count)
    }

    func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error> {
        switch action {
        case .load:
            let status = favorites.loadError.map { "Favourites: \($0)" }
            do {
                return .just(.setProfile(try profiles.loadProfile()), .setStatus(status))
            } catch {
                return .just(.setStatus(status ?? "Profile: \(error)"))
            }
        case .refresh:
            return refresh()
        case .toggleFavorite:
            return toggleFavorite()
        case .setName(let name):
            return save { $0.name = name }
        case .setBio(let bio):
            return save { $0.bio = bio }
        }
    }

    private func refresh() -> AsyncThrowingStream<Mutation, any Error> {
        let (photos, favorites) = (self.photos, self.favorites)
        return .run { send in
            send(.startLoading)
            do throws(PetPhotoError) {
                let photo = try await photos.randomPhoto()
                send(.setPhoto(photo, isFavorite: await favorites.contains(photo)))
            } catch {
                send(.failLoading(error))
            }
        }
    }

    private func toggleFavorite() -> AsyncThrowingStream<Mutation, any Error> {
        guard let photo = currentState.photo else {
            return .just(.setStatus("There is no photo to keep yet; try `refresh`."))
        }
        do {
            let isFavorite = try favorites.toggle(photo)
            return .just(
                .setFavorite(isFavorite, count: favorites.photos.count),
                .setStatus(isFavorite ? "Kept as a favourite." : "Removed from favourites."))
        } catch {
            return .just(
                .setFavorite(favorites.contains(photo), count: favorites.photos.count),
                .setStatus("Favourites not saved: \(error)"))
        }
    }

    /// The profile changed by `change`, saved; the screen keeps the change even when the save
    /// fails.
    private func save(_ change: (inout Profile) -> Void) -> AsyncThrowingStream<Mutation, any Error> {
        var profile = currentState.profile
        change(&profile)
        do {
            try profiles.saveProfile(profile)
            return .just(.setProfile(profile), .setStatus("Saved."))
        } catch {
            return .just(.setProfile(profile), .setStatus("Profile not saved: \(error)"))
        }
    }

    func reduce(state: ProfileState, mutation: Mutation) -> ProfileState {
        var state = state
        switch mutation {
        case .setProfile(let profile):
            state.profile = profile
        case .startLoading:
            state.isLoading = true
        case .setPhoto(let photo, let isFavorite):
            state.isLoading = false
            state.photo = photo
            state.isFavorite = isFavorite
            state.status = nil
        case .failLoading(let error):
            state.isLoading = false
            state.status = error.description
        case .setFavorite(let isFavorite, let count):
            state.isFavorite = isFavorite
            state.favoriteCount = count
        case .setStatus(let status):
            state.status = status
        }
        return state
    }
}
