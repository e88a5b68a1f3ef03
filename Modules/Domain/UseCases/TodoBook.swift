import Foundation

/// The app's todos: a ``TodoList`` kept in a ``TodoRepository``. Every change is saved at once,
/// so nothing is lost on quit or on a kill.
///
/// A book has one owner that makes every change (in the TodoApp, the Todo screen's reactor);
/// others tell the owner what they want instead of writing here, so the list on screen is
/// always the list that was saved.
@MainActor
public final class TodoBook {
    /// The todos as they are now, saved or not.
    public private(set) var list: TodoList
    private let repository: any TodoRepository
    private let clock: @Sendable () -> Date

    /// Opens the book over `repository` with every todo still readable. When part of what was
    /// stored cannot be read, ``loadError`` says what was skipped; when nothing can be read, it
    /// says why and the book starts empty.
    public init(repository: any TodoRepository, clock: @escaping @Sendable () -> Date = Date.init) {
        self.repository = repository
        self.clock = clock
        do {
            let loaded = try repository.loadReadableTodos()
            list = TodoList(loaded.todos)
            loadError = RepositoryError(combining: loaded.skipped)
        } catch {
            list = TodoList([])
            loadError = error
        }
    }

    /// What could not be read when the book opened: every part skipped, or why nothing could
    /// be read; `nil` when everything was.
    public let loadError: RepositoryError?

    /// Adds a todo titled `title` (validated by ``TodoTitle``) at the end.
    ///
    /// - Throws: ``TodoError``; with ``TodoError/notSaved(_:)`` the todo was added in memory.
    @discardableResult
    public func add(title: String) throws(TodoError) -> Todo {
        let todo = try list.add(title: title, now: clock())
        try save(.added(todo))
        return todo
    }

    /// Marks a todo done, or not done again.
    ///
    /// - Throws: ``TodoError``; with ``TodoError/notSaved(_:)`` the change was made in memory.
    public func toggle(_ id: UUID) throws(TodoError) {
        try list.toggle(id)
        try save(.updated(try todo(id)))
    }

    /// Gives a todo a new title (validated by ``TodoTitle``).
    ///
    /// - Throws: ``TodoError``; with ``TodoError/notSaved(_:)`` the change was made in memory.
    public func rename(_ id: UUID, to title: String) throws(TodoError) {
        try list.rename(id, to: title)
        try save(.updated(try todo(id)))
    }

    /// Removes a todo.
    ///
    /// - Throws: ``TodoError``; with ``TodoError/notSaved(_:)`` the todo is gone from memory only.
    public func delete(_ id: UUID) throws(TodoError) {
        try list.delete(id)
        try save(.deleted([id]))
    }

    /// Puts back todos deleted earlier (an undo), at the end of the list.
    ///
    /// - Throws: ``TodoError/notSaved(_:)`` when a restored todo could not be saved; it is in
    ///   memory then.
    public func restore(_ deleted: [Todo]) throws(TodoError) {
        for todo in list.restore(deleted) { try save(.added(todo)) }
    }

    /// Deletes every done todo; returns how many.
    @discardableResult
    public func clearCompleted() throws(TodoError) -> Int {
        let done = list.todos.filter(\.isDone).map(\.id)
        let removed = list.clearCompleted()
        if removed > 0 { try save(.deleted(done)) }
        return removed
    }

    private func todo(_ id: UUID) throws(TodoError) -> Todo {
        guard let todo = list.todos.first(where: { $0.id == id }) else { throw .notFound(id) }
        return todo
    }

    private func save(_ change: TodoChange) throws(TodoError) {
        do {
            try repository.record(change, todos: list.todos)
        } catch {
            throw .notSaved(error)
        }
    }
}
