import Domain
import Foundation
import LocalProvider
import Synchronization

/// The todos as a snapshot in a ``LocalStore`` plus a journal of the changes since.
///
/// Each change is one fsynced line appended to the journal, so a toggle costs the same with 10
/// todos as with 10,000, and once ``record(_:todos:)`` returns the change survives a kill.
/// After ``compactionThreshold`` changes the whole list is written as a new snapshot (through
/// LocalProvider: atomically, durably with a durable store) and the journal starts again.
/// Loading replays the journal over the snapshot; changes replay idempotently, so a crash
/// between the snapshot and the journal's removal loses and doubles nothing.
///
/// A corrupt snapshot is set aside by LocalProvider, and a corrupt journal line sets the journal
/// aside; either is reported as ``RepositoryError/unreadable(reason:)``.
public final class StoredTodoRepository: TodoRepository {
    private let snapshot: StoredValue<TodoSnapshot>
    private let journal: TodoJournal
    /// Changes in the journal before the list is written whole again.
    public let compactionThreshold: Int
    private let journaled = Mutex(0)

    /// Todos kept in `store` (the snapshot) and in the journal file `journal`.
    public init(store: any LocalStore, journal: URL, compactionThreshold: Int = 256) {
        snapshot = StoredValue(store: store, key: TodoSnapshot.key, empty: TodoSnapshot([]))
        self.journal = TodoJournal(url: journal)
        self.compactionThreshold = max(1, compactionThreshold)
    }

    /// The snapshot with the journal's changes applied.
    public func loadTodos() throws(RepositoryError) -> [Todo] {
        let stored = try snapshot.load()
        guard var todos = stored.todos else {
            throw .unreadable(reason: "\(TodoSnapshotError.misalignedColumns)")
        }
        let changes: [TodoChange]
        do {
            changes = try journal.read()
        } catch {
            let aside = journal.setAside()
            throw .unreadable(reason: "the journal's \(error); moved to \(aside.path)")
        }
        for change in changes { change.apply(to: &todos) }
        journaled.withLock { $0 = changes.count }
        if stored.isMigrated { try compact(todos) }
        return todos
    }

    /// Appends `change` to the journal; every ``compactionThreshold`` changes, or when the
    /// journal cannot be written, writes `todos` as the new snapshot instead.
    public func record(_ change: TodoChange, todos: [Todo]) throws(RepositoryError) {
        let count = journaled.withLock { count in
            count += 1
            return count
        }
        if count >= compactionThreshold {
            try compact(todos)
            return
        }
        do {
            try journal.append(change)
        } catch {
            // The journal would miss this change; the whole list written whole does not.
            do throws(RepositoryError) {
                try compact(todos)
            } catch {
                throw .unwritable(reason: "\(error)")
            }
        }
    }

    /// Writes `todos` as the snapshot and empties the journal.
    public func compact(_ todos: [Todo]) throws(RepositoryError) {
        try snapshot.save(TodoSnapshot(todos))
        do {
            try journal.remove()
        } catch {
            throw .unwritable(reason: "\(error)")
        }
        journaled.withLock { $0 = 0 }
    }
}
