import Domain
import LocalProvider

/// The screen preferences in a ``LocalStore``: the app keeps them in its flavor's UserDefaults
/// suite, next to the profile.
public struct StoredScreenPreferencesRepository: ScreenPreferencesRepository {
    private let value: StoredValue<ScreenPreferences>

    /// Preferences kept in `store`.
    public init(store: any LocalStore) {
        value = StoredValue(store: store, key: StorageKey("screen"), empty: ScreenPreferences())
    }

    /// The saved preferences, or the defaults.
    public func loadPreferences() async throws(RepositoryError) -> ScreenPreferences {
        try await value.load()
    }

    /// Replaces the saved preferences; a failed write throws
    /// ``RepositoryError/unwritable(reason:)`` and the store keeps the old ones.
    public func savePreferences(_ preferences: ScreenPreferences) async throws(RepositoryError) {
        try await value.save(preferences)
    }
}
