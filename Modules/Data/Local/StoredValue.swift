import Domain
import LocalProvider

/// One value in a ``LocalStore``, read and written with the app's ``RepositoryError``s.
///
/// It uses the store's async forms: the file work, and the wait for another process's lock,
/// run on the store's own queue while the caller's task is suspended.
struct StoredValue<Value: Codable & Sendable>: Sendable {
    let store: any LocalStore
    let key: StorageKey<Value>
    /// What a store that has nothing yet gives.
    let empty: Value

    nonisolated(nonsending) func load() async throws(RepositoryError) -> Value {
        do {
            return try await store.load(key) ?? empty
        } catch {
            throw .reading(error)
        }
    }

    nonisolated(nonsending) func save(_ value: Value) async throws(RepositoryError) {
        do {
            try await store.save(value, for: key)
        } catch {
            throw .writing(error)
        }
    }
}
