import Foundation

/// Where the todos are kept. Changes come one at a time, so that a store can write only what
/// changed: with 10,000 todos, rewriting them all on every toggle is what makes a command slow.
public protocol TodoRepository: Sendable {
    /// Every todo, in the order kept; empty when nothing was saved yet.
    ///
    /// - Throws: ``RepositoryError/unreadable(reason:)`` when something stored could not be
    ///   read; a store sets it aside first, so that loading again gives what is still readable.
    func loadTodos() throws(RepositoryError) -> [Todo]
    /// Records `change`, durably: once this returns, the change survives a kill. `todos` is the
    /// whole list after the change, for stores that keep snapshots.
    func record(_ change: TodoChange, todos: [Todo]) throws(RepositoryError)
}

/// One change to the todos, as a store records it. Applying a change twice has the effect of
/// applying it once, so a store may replay changes its snapshot already holds.
public enum TodoChange: Hashable, Codable, Sendable {
    /// A todo was added at the end (or, when one with its id exists, replaced it).
    case added(Todo)
    /// A todo changed; it keeps its place.
    case updated(Todo)
    /// These todos were deleted.
    case deleted([UUID])

    /// Applies the change to `todos`, in place.
    public func apply(to todos: inout [Todo]) {
        switch self {
        case .added(let todo), .updated(let todo):
            if let index = todos.lastIndex(where: { $0.id == todo.id }) {
                todos[index] = todo
            } else {
                todos.append(todo)
            }
        case .deleted(let ids):
            let gone = Set(ids)
            todos.removeAll { gone.contains($0.id) }
        }
    }
}
