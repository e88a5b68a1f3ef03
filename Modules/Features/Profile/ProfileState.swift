import Domain

/// What the profile screen shows.
struct ProfileState: Equatable, Sendable {
    var profile = Profile()
    var pet: Pet
    var photo: PetPhoto?
    var isLoading = false
    var isFavorite = false
    var favoriteCount = 0
    /// Why the photo or a save failed, or what just happened.
    var status: String?
}
