import Foundation

/// The todos, as a value, and the changes the app makes to them. Each change is worked out from
/// the list as it is (``adding(title:now:)``, ``toggling(_:)``, …), which either gives the
/// ``TodoChange`` or throws, and is then made with ``apply(_:)``: the very change a store
/// records, so that the list in memory and the list stored change by the same steps.
public struct TodoList: Hashable, Sendable {
    /// Every todo, oldest first.
    public private(set) var todos: [Todo]

    /// A list of `todos`.
    public init(_ todos: [Todo] = []) {
        self.todos = todos
    }

    /// The todos that pass `filter`, oldest first.
    public func filtered(_ filter: TodoFilter) -> [Todo] {
        filter == .all ? todos : todos.filter(filter.includes)
    }

    /// How many are not done.
    public var activeCount: Int { todos.count { !$0.isDone } }

    /// The todo with `id`.
    ///
    /// - Throws: ``TodoError/notFound(_:)`` when no todo has `id`.
    public func todo(_ id: UUID) throws(TodoError) -> Todo {
        todos[try position(of: id)]
    }

    /// Makes `change`, as a store applies it.
    public mutating func apply(_ change: TodoChange) {
        change.apply(to: &todos)
    }

    /// Adds a todo titled `title` (validated by ``TodoTitle``), created `now`, at the end.
    public func adding(title: String, now: Date = Date()) throws(TodoError) -> TodoChange {
        .added(Todo(title: try TodoTitle.validated(title), createdAt: now))
    }

    /// Marks the todo done, or not done again.
    public func toggling(_ id: UUID) throws(TodoError) -> TodoChange {
        var todo = try todo(id)
        todo.isDone.toggle()
        return .updated(todo)
    }

    /// Gives the todo a new title (validated by ``TodoTitle``).
    public func renaming(_ id: UUID, to title: String) throws(TodoError) -> TodoChange {
        var todo = try todo(id)
        todo.title = try TodoTitle.validated(title)
        return .updated(todo)
    }

    /// Removes the todo with `id`; the others keep their order.
    ///
    /// - Throws: ``TodoError/notFound(_:)`` when no todo has `id`.
    public func deleting(_ id: UUID) throws(TodoError) -> TodoChange {
        _ = try position(of: id)
        return .deleted([id])
    }

    /// Removes every todo that is done; `nil` when none is.
    public func clearingCompleted() -> TodoChange? {
        let done = todos.filter(\.isDone).map(\.id)
        return done.isEmpty ? nil : .deleted(done)
    }

    /// Puts back todos that were deleted, at the end, as they were (id, title, done, date), one
    /// change each; those still in the list are left alone.
    public func restoring(_ deleted: [Todo]) -> [TodoChange] {
        let present = Set(todos.map(\.id))
        return deleted.filter { !present.contains($0.id) }.map(TodoChange.added)
    }

    private func position(of id: UUID) throws(TodoError) -> Int {
        guard let index = todos.firstIndex(where: { $0.id == id }) else { throw .notFound(id) }
        return index
    }
}
