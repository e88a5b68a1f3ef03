import Foundation

/// One change to the todos, as a store records it. Applying a change twice has the effect of
/// applying it once, so a store may replay changes its snapshot already holds.
public enum TodoChange: Hashable, Codable, Sendable {
    /// A todo was added at the end (or, when one with its id exists, replaced it).
    case added(Todo)
    /// A todo changed; it keeps its place.
    case updated(Todo)
    /// These todos were deleted.
    case deleted([UUID])

    /// The todo added or changed; `nil` for a deletion.
    public var todo: Todo? {
        switch self {
        case .added(let todo), .updated(let todo): todo
        case .deleted: nil
        }
    }

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
