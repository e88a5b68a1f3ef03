import Foundation

/// The app's todos: a ``TodoList`` kept in a ``TodoRepository``. Every change is saved at once,
/// so nothing is lost on quit or on a kill.
///
/// A book has one owner that makes every change (in the TodoApp, the Todo screen's reactor);
/// others tell the owner what they want instead of writing here, so the list on screen is
/// always the list that was saved.
///
/// A change is made in ``list`` at once and then awaits its save, which may wait for the disk
/// or for another process holding the data folder's lock; the main actor keeps running
/// meanwhile. The owner makes one change at a time, each after the one before has returned, so
/// the repository records them in the order they were made. A failed save throws
/// ``TodoError/notSaved(_:)`` and leaves the change in memory, for the owner to report.
@MainActor
public final class TodoBook {
    /// The todos as they are now, saved or not; empty until ``open()`` has read them.
    public private(set) var list = TodoList([])
    private let repository: any TodoRepository
    private let clock: @Sendable () -> Date

    /// A book over `repository`, not read yet: ``open()`` reads it.
    public init(repository: any TodoRepository, clock: @escaping @Sendable () -> Date = Date.init) {
        self.repository = repository
        self.clock = clock
    }

    /// What could not be read when the book opened: every part skipped, or why nothing could
    /// be read; `nil` when everything was, or before ``open()``.
    public private(set) var loadError: RepositoryError?

    /// Whether ``open()`` has been called, for tests: the owner opens the book before its first
    /// change, and a caller that needs the list awaits ``open()``, which reads only once.
    package var isOpen: Bool { opening != nil }
    private var opening: Task<Void, Never>?

    /// Reads every todo still readable into ``list``, before the first change. Every call
    /// returns once that one read is done: a second caller never sees the empty book of a read
    /// still on its way. When part of what was stored cannot be read, ``loadError`` says what
    /// was skipped; when nothing can be read, it says why and the book stays empty.
    public func open() async {
        let reading = opening ?? Task { await read() }
        opening = reading
        await reading.value
    }

    private func read() async {
        do {
            let loaded = try await repository.loadReadableTodos()
            list = TodoList(loaded.todos)
            loadError = RepositoryError(combining: loaded.skipped)
        } catch {
            loadError = error
        }
    }

    /// Adds a todo titled `title` (validated by ``TodoTitle``) at the end.
    ///
    /// - Throws: ``TodoError``; with ``TodoError/notSaved(_:)`` the todo was added in memory.
    @discardableResult
    public func add(title: String) async throws(TodoError) -> Todo {
        let todo = try list.add(title: title, now: clock())
        try await save(.added(todo))
        return todo
    }

    /// Marks a todo done, or not done again.
    ///
    /// - Throws: ``TodoError``; with ``TodoError/notSaved(_:)`` the change was made in memory.
    public func toggle(_ id: UUID) async throws(TodoError) {
        try list.toggle(id)
        try await save(.updated(try todo(id)))
    }

    /// Gives a todo a new title (validated by ``TodoTitle``).
    ///
    /// - Throws: ``TodoError``; with ``TodoError/notSaved(_:)`` the change was made in memory.
    public func rename(_ id: UUID, to title: String) async throws(TodoError) {
        try list.rename(id, to: title)
        try await save(.updated(try todo(id)))
    }

    /// Removes a todo.
    ///
    /// - Throws: ``TodoError``; with ``TodoError/notSaved(_:)`` the todo is gone from memory only.
    public func delete(_ id: UUID) async throws(TodoError) {
        try list.delete(id)
        try await save(.deleted([id]))
    }

    /// Puts back todos deleted earlier (an undo), at the end of the list, in one change per todo.
    ///
    /// - Throws: ``TodoError/notSaved(_:)`` when a restored todo could not be saved; it is in
    ///   memory then, and so are the ones after it, which were not tried.
    public func restore(_ deleted: [Todo]) async throws(TodoError) {
        for todo in list.restore(deleted) { try await save(.added(todo)) }
    }

    /// Deletes every done todo; returns how many.
    @discardableResult
    public func clearCompleted() async throws(TodoError) -> Int {
        let done = list.todos.filter(\.isDone).map(\.id)
        let removed = list.clearCompleted()
        if removed > 0 { try await save(.deleted(done)) }
        return removed
    }

    private func todo(_ id: UUID) throws(TodoError) -> Todo {
        guard let todo = list.todos.first(where: { $0.id == id }) else { throw .notFound(id) }
        return todo
    }

    private func save(_ change: TodoChange) async throws(TodoError) {
        do {
            try await repository.record(change, todos: list.todos)
        } catch {
            throw .notSaved(error)
        }
    }
}
