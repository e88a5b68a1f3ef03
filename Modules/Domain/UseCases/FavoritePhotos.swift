/// The favourite photos, saved on every change.
///
/// It has one owner (in the TodoApp, the Profile screen's reactor) that opens it first and then
/// makes one change at a time, awaiting each save.
@MainActor
public final class FavoritePhotos {
    /// The favourites, oldest first; empty until ``open()`` has read them.
    public private(set) var photos: [PetPhoto] = []
    private let repository: any FavoritePhotoRepository

    /// Why the stored favourites could not be read, if they could not.
    public private(set) var loadError: RepositoryError?

    private var opening: Task<Void, Never>?

    /// The favourites kept in `repository`, not read yet: ``open()`` reads them.
    public init(repository: any FavoritePhotoRepository) {
        self.repository = repository
    }

    /// Reads the stored favourites, once; unreadable ones leave the list empty and say why in
    /// ``loadError``. Every call returns once that one read is done, so a screen opened while
    /// another is still reading never shows, or saves over, an empty list.
    public func open() async {
        let reading = opening ?? Task { await read() }
        opening = reading
        await reading.value
    }

    private func read() async {
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
