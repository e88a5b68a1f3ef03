/// Where favourite photos are kept.
public protocol FavoritePhotoRepository: Sendable {
    /// The favourites, oldest first.
    func loadFavorites() async throws(RepositoryError) -> [PetPhoto]
    /// Replaces the favourites with `photos`.
    func saveFavorites(_ photos: [PetPhoto]) async throws(RepositoryError)
}
