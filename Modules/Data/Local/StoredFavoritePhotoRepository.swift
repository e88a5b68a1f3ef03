import Domain
import LocalProvider

/// The favourite photos in a ``LocalStore``; the app uses the flavor's data folder.
public struct StoredFavoritePhotoRepository: FavoritePhotoRepository {
    private let value: StoredValue<[PetPhoto]>

    /// Favourites kept in `store`.
    public init(store: any LocalStore) {
        value = StoredValue(store: store, key: StorageKey("favorites"), empty: [])
    }

    /// The saved favourites, or none.
    public func loadFavorites() async throws(RepositoryError) -> [PetPhoto] { try await value.load() }

    /// Saves `photos`.
    public func saveFavorites(_ photos: [PetPhoto]) async throws(RepositoryError) {
        try await value.save(photos)
    }
}
