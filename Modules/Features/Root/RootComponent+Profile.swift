import Domain
import Profile

// The root component gives Profile the app's repositories (Uber's Component Extension).
extension RootComponent: ProfileDependency {
    /// The app's, passed down: Profile is the only RIB that reads or writes the profile.
    @MainActor public var profileRepository: any ProfileRepository { dependency.profileRepository }
    /// The flavor's API, as the app chose it (live, offline, or `TODOAPP_API_BASE_URL`).
    @MainActor public var petPhotoRepository: any PetPhotoRepository { dependency.petPhotoRepository }
    /// The app's one list of favourites.
    @MainActor public var favoritePhotos: FavoritePhotos { dependency.favoritePhotos }
}
