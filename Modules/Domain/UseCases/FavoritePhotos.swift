/// The favourite photos, saved on every change.
@MainActor
public final class FavoritePhotos {
    /// The favourites, oldest first.
    public private(set) var photos: [PetPhoto]
    private let repository: any FavoritePhotoRepository

    /// Why the stored favourites could not be read, if they could not.
    public let loadError: RepositoryError?

    /// Opens the favourites kept in `repository`; unreadable ones start empty.
    public init(repository: any FavoritePhotoRepository) {
        self.repository = repository
        do {
            photos = try repository.loadFavorites()
            loadError = nil
        } catch {
            photos = []
            loadError = error
        }
    }

    /// Whether `photo` is a favourite.
    public func contains(_ photo: PetPhoto) -> Bool {
        photos.contains { $0.id == photo.id }
    }

    /// Adds `photo` to the favourites, or removes it when it is one; returns whether it is one now.
    ///
    /// - Throws: ``RepositoryError``; the change stays in memory.
    @discardableResult
    public func toggle(_ photo: PetPhoto) throws(RepositoryError) -> Bool {
        let isFavorite: Bool
        if contains(photo) {
            photos.removeAll { $0.id == photo.id }
            isFavorite = false
        } else {
            photos.append(photo)
            isFavorite = true
        }
        try repository.saveFavorites(photos)
        return isFavorite
    }
}
