/// Where the todos are kept.
public protocol TodoRepository: Sendable {
    /// Every todo, in the order saved; empty when nothing was saved yet.
    func loadTodos() throws(RepositoryError) -> [Todo]
    /// Replaces what is kept with `todos`, durably: a saved list survives a kill.
    func saveTodos(_ todos: [Todo]) throws(RepositoryError)
}
