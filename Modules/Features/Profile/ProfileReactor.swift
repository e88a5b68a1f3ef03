import Domain
import Foundation
import HeadlessUI
import Reactor

/// The profile screen's state machine: the name and bio (in UserDefaults), the flavor's pet
/// photo, fetched and decoded, and the favourites, browsable one by one. A failed request or
/// save becomes a ``Domain/Notice`` for the status line; the rest of the app goes on.
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
        case setPhoto(PetPhoto, isFavorite: Bool)
        case setImage(Bitmap?, failure: String?)
        case failLoading(PetPhotoError)
        case setFavorites([PetPhoto], isFavorite: Bool)
        case browse(Int?)
        /// Says what happened; `nil` clears the screen's last notice.
        case notify(Notice?)
    }

    /// The smallest picture decoded: wider than most terminals are columns, and two pixels a
    /// row tall, so that a JPEG is scaled while it is decoded and still fills a large window.
    nonisolated static let decodedSize = (width: 320, height: 200)

    let initialState: ProfileState
    let runtime = ReactorRuntime<ProfileReactor>()
    private let profiles: any ProfileRepository
    private let photos: any PetPhotoRepository
    private let favorites: FavoritePhotos

    init(profiles: any ProfileRepository, photos: any PetPhotoRepository, favorites: FavoritePhotos) {
        self.profiles = profiles
        self.photos = photos
        self.favorites = favorites
        initialState = ProfileState(pet: photos.pet, favorites: favorites.photos)
    }

    func mutate(action: Action) -> Mutations<Mutation> {
        switch action {
        case .load:
            return load()
        case .refresh:
            return refresh()
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

    private func refresh() -> Mutations<Mutation> {
        let (photos, favorites) = (self.photos, self.favorites)
        return .run { send in
            send(.startLoading)
            let photo: PetPhoto
            do throws(PetPhotoError) {
                photo = try await photos.randomPhoto()
            } catch {
                send(.failLoading(error))
                return
            }
            send(.setPhoto(photo, isFavorite: favorites.contains(photo)))
            let (bitmap, failure) = await Self.image(of: photo, from: photos)
            send(.setImage(bitmap, failure: failure))
        }
    }

    /// `photo`'s pixels, or why there are none.
    nonisolated private static func image(of photo: PetPhoto, from photos: any PetPhotoRepository) async -> (
        Bitmap?, String?
    ) {
        do {
            let data = try await photos.imageData(for: photo)
            return (try await decode(data), nil)
        } catch let error as PetPhotoError {
            return (nil, "The photo could not be fetched: \(error)")
        } catch {
            return (nil, "The photo could not be shown: \(error)")
        }
    }

    /// Decodes off the main actor: a large JPEG takes milliseconds.
    @concurrent nonisolated private static func decode(_ data: Data) async throws(ImageError) -> Bitmap {
        try Bitmap(data: data, minimumSize: decodedSize)
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
        let photos = self.photos
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
                let (bitmap, failure) = await Self.image(of: current, from: photos)
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
            let (bitmap, failure) = await Self.image(of: photo, from: photos)
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
        case .setPhoto(let photo, let isFavorite):
            state.isLoading = false
            state.photo = photo
            state.bitmap = nil
            state.imageFailure = nil
            state.photoFailure = nil
            state.isFavorite = isFavorite
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
