import Domain
import Foundation
import Images
import Reactor

/// The profile screen's state machine: the name and bio (in UserDefaults), the flavor's pet
/// photo, and the favourites, browsable one by one. A failed request or save becomes a
/// ``Domain/Notice`` for the status line; the rest of the app goes on.
///
/// The photo is fetched by ``ProfileInteractor``, which owns the request and may cancel it, and
/// tells the reactor what it asked for and what came: a request holds no turn of the reactor's
/// queue, so a name typed while it is on its way is saved and shown at once.
@MainActor
final class ProfileReactor: Reactor {
    enum Action: Sendable {
        /// Read the stored profile, and say so if it or the favourites could not be read.
        case load
        /// Another photo was asked for: the screen says it is loading.
        case photoRequested
        /// The photo asked for last came, or why it did not.
        case photoArrived(Result<PetPhoto, PetPhotoError>)
        /// The pixels of a photo that came, or why there are none; dropped unless that photo is
        /// still the one on show and no favourite is browsed (ending the browsing draws it).
        case imageArrived(PetPhoto, Bitmap?, failure: String?)
        /// The request was given up with none after it (the RIB deactivated): the screen stops
        /// loading and says nothing.
        case photoAbandoned
        /// Keep the photo as a favourite, or drop it.
        case toggleFavorite
        case setName(String)
        case setBio(String)
        /// Show another favourite, or stop browsing.
        case browseFavorites(FavoriteMove)
    }

    /// Where browsing the favourites goes.
    enum FavoriteMove: Sendable {
        /// The favourite `steps` places from the one shown, going round; the first when none is.
        case by(Int)
        /// The favourite at this index of the list.
        case to(Int)
        /// Back to the photo the API gave last.
        case end
    }

    enum Mutation: Sendable {
        case setProfile(Profile)
        case startLoading
        case stopLoading
        case setPhoto(PetPhoto, isFavorite: Bool)
        case setImage(Bitmap?, failure: String?)
        case failLoading(PetPhotoError)
        case setFavorites([PetPhoto], isFavorite: Bool)
        case browse(Int?)
        /// Says what happened; `nil` clears the screen's last notice.
        case notify(Notice?)
    }

    let initialState: ProfileState
    let runtime = ReactorRuntime<ProfileReactor>()
    private let profiles: any ProfileRepository
    private let pictures: PetPictures
    private let favorites: FavoritePhotos

    init(profiles: any ProfileRepository, photos: any PetPhotoRepository, favorites: FavoritePhotos) {
        self.profiles = profiles
        pictures = PetPictures(repository: photos)
        self.favorites = favorites
        initialState = ProfileState(pet: photos.pet, favorites: favorites.photos)
    }

    func mutate(action: Action) -> Mutations<Mutation> {
        switch action {
        case .load:
            return load()
        case .photoRequested:
            return .just(.startLoading)
        case .photoArrived(.success(let photo)):
            return .just(.setPhoto(photo, isFavorite: favorites.contains(photo)))
        case .photoArrived(.failure(let error)):
            return .just(.failLoading(error))
        case .imageArrived(let photo, let bitmap, let failure):
            let state = currentState
            guard state.photo == photo, state.browsedFavorite == nil else { return .empty() }
            return .just(.setImage(bitmap, failure: failure))
        case .photoAbandoned:
            return .just(.stopLoading)
        case .toggleFavorite:
            return toggleFavorite()
        case .setName(let name):
            return save("Name") { $0.name = name }
        case .setBio(let bio):
            return save("Bio") { $0.bio = bio }
        case .browseFavorites(let move):
            return browse(move)
        }
    }

    /// The stored profile and favourites; the status line says what could not be read.
    private func load() -> Mutations<Mutation> {
        let profiles = self.profiles
        return .run { [self] send in
            // Both at once: each waits for its own store's queue.
            async let profile = Self.storedProfile(in: profiles)
            await favorites.open()
            let shown = currentState.photo
            send(.setFavorites(favorites.photos, isFavorite: shown.map(favorites.contains) ?? false))
            var notice = favorites.loadError.map { Notice.failure("Favourites: \($0)") }
            switch await profile {
            case .success(let profile): send(.setProfile(profile))
            case .failure(let error): notice = notice ?? .failure("Profile: \(error)")
            }
            // Only a failure is said: a screen read as it should be has nothing to tell.
            if let notice { send(.notify(notice)) }
        }
    }

    nonisolated private static func storedProfile(in profiles: any ProfileRepository) async
        -> Result<Profile, RepositoryError>
    {
        do throws(RepositoryError) {
            return .success(try await profiles.loadProfile())
        } catch {
            return .failure(error)
        }
    }

    private func toggleFavorite() -> Mutations<Mutation> {
        guard let photo = currentState.photo else {
            return .just(.notify(.failure("There is no photo to keep yet; press r (or type `refresh`).")))
        }
        let favorites = self.favorites
        return .run { send in
            do {
                let isFavorite = try await favorites.toggle(photo)
                send(.setFavorites(favorites.photos, isFavorite: isFavorite))
                send(.notify(.success(isFavorite ? "Kept as a favourite." : "Removed from favourites.")))
            } catch {
                send(.setFavorites(favorites.photos, isFavorite: favorites.contains(photo)))
                send(.notify(.failure("Favourites not saved: \(error)")))
            }
        }
    }

    private func browse(_ move: FavoriteMove) -> Mutations<Mutation> {
        let kept = favorites.photos
        let pictures = self.pictures
        let index: Int
        switch move {
        case .by(let steps):
            index = currentState.browsedFavorite.map { $0 + steps } ?? 0
        case .to(let wanted):
            index = wanted
        case .end:
            // Back to the photo the API gave last.
            let current = currentState.photo
            return .run { send in
                send(.browse(nil))
                send(.notify(nil))
                guard let current else { return }
                let (bitmap, failure) = await pictures.image(of: current)
                send(.setImage(bitmap, failure: failure))
            }
        }
        guard !kept.isEmpty else {
            return .just(.notify(.failure("No favourites yet: press f to keep the photo shown.")))
        }
        // Round the list either way: ← from the first is the last.
        let shown = (index % kept.count + kept.count) % kept.count
        let photo = kept[shown]
        return .run { send in
            send(.browse(shown))
            send(
                .notify(
                    Notice(
                        "Favourite \(shown + 1) of \(kept.count): \(photo.breed ?? "breed unknown").")))
            let (bitmap, failure) = await pictures.image(of: photo)
            send(.setImage(bitmap, failure: failure))
        }
    }

    /// The profile changed by `change`, saved; the screen keeps the change even when the save
    /// fails.
    private func save(_ field: String, _ change: (inout Profile) -> Void) -> Mutations<Mutation> {
        var profile = currentState.profile
        change(&profile)
        let (profiles, changed) = (self.profiles, profile)
        return .run { send in
            do {
                try await profiles.saveProfile(changed)
                send(.setProfile(changed))
                send(.notify(.success("\(field) saved.")))
            } catch {
                send(.setProfile(changed))
                send(.notify(.failure("Profile not saved: \(error)")))
            }
        }
    }

    func reduce(state: ProfileState, mutation: Mutation) -> ProfileState {
        var state = state
        switch mutation {
        case .setProfile(let profile):
            state.profile = profile
        case .startLoading:
            state.isLoading = true
            state.browsedFavorite = nil
        case .stopLoading:
            state.isLoading = false
        case .setPhoto(let photo, let isFavorite):
            state.isLoading = false
            state.photo = photo
            state.photoFailure = nil
            state.isFavorite = isFavorite
            // A favourite browsed meanwhile keeps its pixels; ending the browsing draws this one.
            if state.browsedFavorite == nil {
                state.bitmap = nil
                state.imageFailure = nil
            }
        case .setImage(let bitmap, let failure):
            state.bitmap = bitmap
            state.imageFailure = failure
            if let failure { state.notice.value = .failure(failure) }
        case .failLoading(let error):
            state.isLoading = false
            state.photoFailure = error
            state.notice.value = .failure(error.description)
        case .setFavorites(let favorites, let isFavorite):
            state.favorites = favorites
            state.isFavorite = isFavorite
        case .browse(let index):
            state.browsedFavorite = index
            state.bitmap = nil
            state.imageFailure = nil
        case .notify(let notice):
            state.notice.value = notice
        }
        return state
    }
}
