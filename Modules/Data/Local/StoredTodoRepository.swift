import Domain
import LocalProvider

/// The todos in a ``LocalStore``; the app uses a durable ``PlistFileStore`` in the flavor's
/// data folder, so a finished save survives a kill or a power cut. A corrupt file is set aside by
/// LocalProvider and reported, and the app starts empty instead of crashing.
public struct StoredTodoRepository: TodoRepository {
    private let value: StoredValue<[Todo]>

    /// Todos kept in `store`.
    public init(store: any LocalStore) {
        value = StoredValue(store: store, key: StorageKey("todos"), empty: [])
    }

    /// The saved todos, or none.
    public func loadTodos() throws(RepositoryError) -> [Todo] { try value.load() }

    /// Saves `todos`.
    public func saveTodos(_ todos: [Todo]) throws(RepositoryError) { try value.save(todos) }
}
