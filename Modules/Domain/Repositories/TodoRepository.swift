import Foundation

/// Where the todos are kept. Changes come one at a time, so that a store can write only what
/// changed: with 10,000 todos, rewriting them all on every toggle is what makes a command slow.
///
/// Its methods are async because a store may wait: for the disk, and for another process that
/// holds the data folder's lock (up to seconds). The screen awaits them on the main actor, which
/// keeps drawing meanwhile; a store does that waiting on threads of its own, never on the
/// cooperative pool's. The requirements run on the caller's actor (`nonisolated(nonsending)`)
/// until the store hands its work to its own threads, so that a save awaited on the main actor
/// comes back to it without a stop on the cooperative pool on the way.
public protocol TodoRepository: Sendable {
    /// Every todo still readable, and what could not be read. A store sets a damaged part aside
    /// and loads the rest, so one call gives everything there is; ``ReadableTodos/skipped`` says
    /// what is missing and why.
    ///
    /// - Throws: ``RepositoryError/unreadable(reason:)`` when nothing could be read at all (a
    ///   file or folder the process may not open), or ``RepositoryError/inUse(location:waited:)``
    ///   when another process kept the data to itself; nothing is set aside then.
    nonisolated(nonsending) func loadReadableTodos() async throws(RepositoryError) -> ReadableTodos
    /// Records `change`, durably: once this returns, the change survives a kill. A store keeps
    /// what it needs to apply it itself (``TodoChange/apply(to:)``), so the caller hands over the
    /// change alone, not its whole list.
    nonisolated(nonsending) func record(_ change: TodoChange) async throws(RepositoryError)
}

/// What ``TodoRepository/loadReadableTodos()`` read.
public struct ReadableTodos: Equatable, Sendable {
    /// Every todo that could be read, in the order kept.
    public var todos: [Todo]
    /// What could not be read, each an ``RepositoryError/unreadable(reason:)`` naming the part
    /// set aside; empty when everything was read.
    public var skipped: [RepositoryError]

    /// What a load read: `todos`, and what it skipped.
    public init(todos: [Todo], skipped: [RepositoryError] = []) {
        self.todos = todos
        self.skipped = skipped
    }

    /// Everything ``skipped`` as one error: the only one, or an
    /// ``RepositoryError/unreadable(reason:)`` giving every reason; `nil` when all was read.
    public var damage: RepositoryError? { RepositoryError(combining: skipped) }
}

extension TodoRepository {
    /// Every todo, or an error when any part could not be read: for callers that must have all.
    ///
    /// - Throws: ``RepositoryError/unreadable(reason:)`` naming everything skipped (it was set
    ///   aside, so loading again gives what is still readable, with no error).
    public func loadTodos() async throws(RepositoryError) -> [Todo] {
        let loaded = try await loadReadableTodos()
        if let damage = loaded.damage { throw damage }
        return loaded.todos
    }
}
