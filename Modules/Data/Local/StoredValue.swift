import Domain
import LocalProvider

/// One value in a ``LocalStore``, read and written with the app's ``RepositoryError``s.
///
/// It uses the store's synchronous forms, as Domain's repositories are synchronous: their
/// callers run on the main actor, not on a thread of the cooperative pool.
struct StoredValue<Value: Codable & Sendable>: Sendable {
    let store: any LocalStore
    let key: StorageKey<Value>
    /// What a store that has nothing yet gives.
    let empty: Value

    func load() throws(RepositoryError) -> Value {
        do {
            return try store.load(key) ?? empty
        } catch {
            throw .unreadable(reason: "\(error)")
        }
    }

    func save(_ value: Value) throws(RepositoryError) {
        do {
            try store.save(value, for: key)
        } catch {
            throw .unwritable(reason: "\(error)")
        }
    }
}
