import Domain
import Synchronization

/// A profile, favourites and screen preferences kept in memory only, for tests and previews. Saves
/// can be made to fail.
public final class InMemoryProfileStore: ProfileRepository, FavoritePhotoRepository,
    ScreenPreferencesRepository
{
    private struct Contents {
        var profile: Profile
        var favorites: [PetPhoto]
        var preferences = ScreenPreferences()
        var saveFailure: RepositoryError?
    }

    private let contents: Mutex<Contents>

    /// A store holding `profile` and `favorites`.
    public init(profile: Profile = Profile(), favorites: [PetPhoto] = []) {
        contents = Mutex(Contents(profile: profile, favorites: favorites))
    }

    /// Makes every later save fail with `failure`, or succeed again with `nil`.
    public func failSaves(with failure: RepositoryError?) {
        contents.withLock { $0.saveFailure = failure }
    }

    /// The profile last saved here; reading never fails.
    public func loadProfile() async throws(RepositoryError) -> Profile { contents.withLock { $0.profile } }

    /// Keeps `profile`, or throws the failure set with ``failSaves(with:)``.
    public func saveProfile(_ profile: Profile) async throws(RepositoryError) {
        try save { $0.profile = profile }
    }

    /// The favourites last saved here; reading never fails.
    public func loadFavorites() async throws(RepositoryError) -> [PetPhoto] {
        contents.withLock { $0.favorites }
    }

    /// Keeps `photos`, or throws the failure set with ``failSaves(with:)``.
    public func saveFavorites(_ photos: [PetPhoto]) async throws(RepositoryError) {
        try save { $0.favorites = photos }
    }

    /// The preferences last saved here; reading never fails.
    nonisolated(nonsending) public func loadPreferences() async throws(RepositoryError) -> ScreenPreferences {
        contents.withLock { $0.preferences }
    }

    /// Keeps `preferences`, or throws the failure set with ``failSaves(with:)``.
    nonisolated(nonsending) public func savePreferences(_ preferences: ScreenPreferences)
        async throws(RepositoryError)
    {
        try save { $0.preferences = preferences }
    }

    /// Changes the preferences in one step, or throws the failure set with ``failSaves(with:)``.
    nonisolated(nonsending) public func updatePreferences(
        _ change: @escaping @Sendable (inout ScreenPreferences) -> Void
    )
        async throws(RepositoryError)
    {
        try save { change(&$0.preferences) }
    }

    private func save(_ change: (inout Contents) -> Void) throws(RepositoryError) {
        let failure: RepositoryError? = contents.withLock { contents in
            if let failure = contents.saveFailure { return failure }
            change(&contents)
            return nil
        }
        if let failure { throw failure }
    }
}
