import Domain

/// The todos read from a repository, changed as the Todo screen's reactor changes them: each
/// change is made in the list and recorded, the change alone, one at a time.
struct RecordedTodos {
    let repository: any TodoRepository
    private(set) var list: TodoList
    /// What could not be read: every part skipped, or why nothing could be read.
    let loadError: RepositoryError?

    /// The todos `repository` holds, read as the app reads them at launch.
    init(_ repository: any TodoRepository) async {
        self.repository = repository
        do {
            let loaded = try await repository.loadReadableTodos()
            list = TodoList(loaded.todos)
            loadError = loaded.damage
        } catch {
            list = TodoList()
            loadError = error
        }
    }

    /// Makes `change` in the list and records it.
    mutating func record(_ change: TodoChange) async throws {
        list.apply(change)
        try await repository.record(change)
    }

    /// Adds a todo titled `title`, recorded; returns it.
    @discardableResult
    mutating func add(_ title: String) async throws -> Todo {
        let todo = Todo(title: title)
        try await record(.added(todo))
        return todo
    }
}
