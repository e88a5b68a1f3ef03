import Domain
import LocalProvider

/// The screen preferences in a ``LocalStore``: the app keeps them in its flavor's UserDefaults
/// suite, next to the profile. Its updates run one after another, so the tab and the filter
/// changed at once are both kept; the app shares one instance between its screens.
public struct StoredScreenPreferencesRepository: ScreenPreferencesRepository {
    private let value: StoredValue<ScreenPreferences>
    private let updates = SerialUpdates()

    /// Preferences kept in `store`.
    public init(store: any LocalStore) {
        value = StoredValue(store: store, key: StorageKey("screen"), empty: ScreenPreferences())
    }

    /// The saved preferences, or the defaults.
    nonisolated(nonsending) public func loadPreferences() async throws(RepositoryError) -> ScreenPreferences {
        try await value.load()
    }

    /// Replaces the saved preferences; a failed write throws
    /// ``RepositoryError/unwritable(reason:)`` and the store keeps the old ones.
    nonisolated(nonsending) public func savePreferences(_ preferences: ScreenPreferences)
        async throws(RepositoryError)
    {
        try await value.save(preferences)
    }

    /// Loads, changes with `change` and saves, after every update asked for before on this
    /// repository.
    nonisolated(nonsending) public func updatePreferences(
        _ change: @escaping @Sendable (inout ScreenPreferences) -> Void
    )
        async throws(RepositoryError)
    {
        let value = self.value
        try await updates.run { () async throws(RepositoryError) in
            var preferences = try await value.load()
            change(&preferences)
            try await value.save(preferences)
        }
    }
}
