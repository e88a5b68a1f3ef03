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

    /// Replaces the saved favourites with `photos`, the whole list at once; a failed write
    /// throws ``RepositoryError/unwritable(reason:)`` and the store keeps the old list.
    public func saveFavorites(_ photos: [PetPhoto]) async throws(RepositoryError) {
        try await value.save(photos)
    }
}
