import Domain
import Images
import Reactor

/// What the profile screen shows.
struct ProfileState: Equatable, Sendable {
    var profile = Profile()
    var pet: Pet
    /// The photo on show, once one came.
    var photo: PetPhoto?
    /// Its pixels, once fetched and decoded.
    var bitmap: Bitmap?
    /// Why the photo's pixels could not be shown, when they could not.
    var imageFailure: String?
    /// Why the last photo request failed, shown in place of a photo that never came.
    var photoFailure: PetPhotoError?
    var isLoading = false
    var isFavorite = false
    /// The favourites, oldest first.
    var favorites: [PetPhoto] = []
    /// The favourite being looked at, when browsing them (an index into ``favorites``).
    var browsedFavorite: Int?
    /// What just happened, for the status line: a pulse, so that the same sentence twice still
    /// shows twice (`nil` clears the line).
    var notice = Pulse<Notice?>(nil)

    var favoriteCount: Int { favorites.count }
}
