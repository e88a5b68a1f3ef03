import Domain
import Profile

// The root component gives Profile the app's repositories (Uber's Component Extension).
extension RootComponent: ProfileDependency {
    /// The app's profile store.
    @MainActor public var profileRepository: any ProfileRepository { dependency.profileRepository }
    /// The flavor's photo API.
    @MainActor public var petPhotoRepository: any PetPhotoRepository { dependency.petPhotoRepository }
    /// The app's favourites.
    @MainActor public var favoritePhotos: FavoritePhotos { dependency.favoritePhotos }
}
