import Domain
import LocalProvider

/// The profile in a ``LocalStore``; the app uses a ``UserDefaultsStore`` suite of the flavor's
/// own, as the original RIBs-todo app keeps small settings in UserDefaults.
public struct StoredProfileRepository: ProfileRepository {
    private let value: StoredValue<Profile>

    /// A profile kept in `store`.
    public init(store: any LocalStore) {
        value = StoredValue(store: store, key: StorageKey("profile"), empty: Profile())
    }

    /// The saved profile, or an empty one.
    public func loadProfile() async throws(RepositoryError) -> Profile { try await value.load() }

    /// Replaces the saved profile; a failed write throws ``RepositoryError/unwritable(reason:)``
    /// and the store keeps the old one.
    public func saveProfile(_ profile: Profile) async throws(RepositoryError) {
        try await value.save(profile)
    }
}
