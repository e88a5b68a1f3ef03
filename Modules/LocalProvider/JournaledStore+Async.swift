/// The async forms of ``JournaledStore``'s operations: the same work, done on the store's own
/// queue, so that async callers hold no thread of the cooperative pool while it runs.
///
/// Each runs on its caller's actor (`nonisolated(nonsending)`) up to the hand-off to the queue,
/// and comes back to that actor straight from the queue: a save awaited on the main actor wakes
/// the queue's thread and then the main actor, and no thread of the cooperative pool.
extension JournaledStore {
    /// ``load()`` with the file work on the store's own queue.
    nonisolated(nonsending) public func load() async throws -> Loaded {
        try await io.run { try self.load() }
    }

    /// ``append(_:)`` with the file work on the store's own queue. Cancelling the task while
    /// another process holds the folder's lock ends the wait with `CancellationError`: the change
    /// was not made. Otherwise the change is made, even for a task cancelled before it started.
    nonisolated(nonsending) public func append(_ change: Value.Change) async throws {
        try await io.run { try self.append(change) }
    }

    /// ``fold()`` with the file work on the store's own queue; cancelled as ``append(_:)`` is.
    nonisolated(nonsending) public func fold() async throws {
        try await io.run { try self.fold() }
    }

    /// ``replace(with:)`` with the file work on the store's own queue; cancelled as
    /// ``append(_:)`` is.
    nonisolated(nonsending) public func replace(with value: Value) async throws {
        try await io.run { try self.replace(with: value) }
    }
}
