import Foundation

/// The todos and every change the app makes to them, as a value: each operation either
/// changes the list or throws and leaves it as it was.
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

    /// Adds a todo titled `title` (validated by ``TodoTitle``) at the end.
    @discardableResult
    public mutating func add(title: String, now: Date = Date()) throws(TodoError) -> Todo {
        let todo = Todo(title: try TodoTitle.validated(title), createdAt: now)
        todos.append(todo)
        return todo
    }

    /// Marks the todo done, or not done again.
    public mutating func toggle(_ id: UUID) throws(TodoError) {
        let index = try position(of: id)
        todos[index].isDone.toggle()
    }

    /// Gives the todo a new title (validated by ``TodoTitle``).
    public mutating func rename(_ id: UUID, to title: String) throws(TodoError) {
        let index = try position(of: id)
        todos[index].title = try TodoTitle.validated(title)
    }

    /// Removes the todo with `id`; the others keep their order.
    ///
    /// - Throws: ``TodoError/notFound(_:)`` when no todo has `id`.
    public mutating func delete(_ id: UUID) throws(TodoError) {
        todos.remove(at: try position(of: id))
    }

    /// Puts back todos that were deleted, at the end, as they were (id, title, done, date); those
    /// still in the list are left alone. Returns the ones put back.
    @discardableResult
    public mutating func restore(_ deleted: [Todo]) -> [Todo] {
        let present = Set(todos.map(\.id))
        let restored = deleted.filter { !present.contains($0.id) }
        todos.append(contentsOf: restored)
        return restored
    }

    /// Removes every todo that is done; returns how many.
    @discardableResult
    public mutating func clearCompleted() -> Int {
        let before = todos.count
        todos.removeAll(where: \.isDone)
        return before - todos.count
    }

    private func position(of id: UUID) throws(TodoError) -> Int {
        guard let index = todos.firstIndex(where: { $0.id == id }) else { throw .notFound(id) }
        return index
    }
}
