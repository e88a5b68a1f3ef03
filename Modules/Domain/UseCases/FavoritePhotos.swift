/// The favourite photos, saved on every change.
///
/// Like ``TodoBook``, it has one owner (in the TodoApp, the Profile screen's reactor) that
/// opens it first and then makes one change at a time, awaiting each save.
@MainActor
public final class FavoritePhotos {
    /// The favourites, oldest first; empty until ``open()`` has read them.
    public private(set) var photos: [PetPhoto] = []
    private let repository: any FavoritePhotoRepository

    /// Why the stored favourites could not be read, if they could not.
    public private(set) var loadError: RepositoryError?

    /// Whether ``open()`` has been called.
    public private(set) var isOpen = false

    /// The favourites kept in `repository`, not read yet: ``open()`` reads them.
    public init(repository: any FavoritePhotoRepository) {
        self.repository = repository
    }

    /// Reads the stored favourites, once; unreadable ones leave the list empty and say why in
    /// ``loadError``. Later calls return at once.
    public func open() async {
        guard !isOpen else { return }
        isOpen = true
        do {
            photos = try await repository.loadFavorites()
        } catch {
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
    public func toggle(_ photo: PetPhoto) async throws(RepositoryError) -> Bool {
        let isFavorite: Bool
        if contains(photo) {
            photos.removeAll { $0.id == photo.id }
            isFavorite = false
        } else {
            photos.append(photo)
            isFavorite = true
        }
        try await repository.saveFavorites(photos)
        return isFavorite
    }
}
