import BlockingWork
import Domain
import Foundation
import LocalProvider

/// The todos in a ``JournaledStore``: `todo-list.snapshot` and `todo-list.journal` in the app's
/// data folder.
///
/// Each change is one fsynced journal line, so a toggle costs the same with 10 todos as with
/// 10,000, and once ``record(_:)`` returns the change survives a kill and a power loss.
/// Every ``foldThreshold`` changes the list is written whole as a new snapshot. The store keeps
/// the list as the files hold it, applies each change to it, and folds that: the caller hands
/// over changes only, never its list, which may have started empty because the files could not
/// be read.
///
/// Damage is set aside, never built over: when part of what was stored cannot be read, that
/// part is moved aside and ``loadReadableTodos()`` lists it as skipped, naming the file and the
/// copy, with everything still readable; every change recorded meanwhile is kept. When the
/// files cannot be read at all (no permission), loading throws and nothing is written until it
/// succeeds.
///
/// Todos stored by the first releases (`todos.plist` and `todos.journal`) are moved into the
/// store on the first load.
///
/// It uses the store's async forms: the journal's file work, and the wait for another process
/// that holds the folder's lock, run on the store's own queue while the caller (the Todo
/// screen's reactor) awaits them on the main actor, which goes on drawing. The first releases' files are moved over on a
/// queue of this repository's own.
public final class StoredTodoRepository: TodoRepository {
    private let store: JournaledStore<TodoItems>
    private let legacy: LegacyTodoFiles

    /// Todos kept in `folder`.
    ///
    /// - Parameters:
    ///   - foldThreshold: Changes journaled before the list is written whole again.
    ///   - lockTimeout: The longest a read or a change waits for another process that holds
    ///     the folder's lock, before it fails with ``RepositoryError/inUse(location:waited:)``.
    public init(folder: URL, foldThreshold: Int = 256, lockTimeout: Duration = .seconds(5)) {
        store = JournaledStore(
            folder: folder, name: "todo-list", foldThreshold: foldThreshold, lockTimeout: lockTimeout)
        legacy = LegacyTodoFiles(folder: folder)
    }

    /// `todo-list.snapshot`, for the tests and benchmarks that read or damage the files.
    package var snapshotURL: URL { store.snapshotURL }
    /// `todo-list.journal`, for the tests and benchmarks that read or damage the files.
    package var journalURL: URL { store.journalURL }

    /// The snapshot with the journal's changes applied: every todo still readable, with each
    /// part that was damaged and set aside on the way (the snapshot, journal lines, the first
    /// releases' files) as an ``RepositoryError/unreadable(reason:)`` naming the file and its copy.
    ///
    /// - Throws: ``RepositoryError/unreadable(reason:)`` when the files cannot be read at all,
    ///   or ``RepositoryError/inUse(location:waited:)`` when another process held the folder's
    ///   lock all the time the store waits for it (nothing is set aside then).
    nonisolated(nonsending) public func loadReadableTodos() async throws(RepositoryError) -> ReadableTodos {
        do {
            var skipped = try await importLegacyFiles()
            let loaded = try await store.load()
            skipped += loaded.setAside.map { "\($0)" }
            return ReadableTodos(todos: loaded.value.todos, skipped: skipped.map { .unreadable(reason: $0) })
        } catch let error as RepositoryError {
            throw error
        } catch {
            throw .reading(error)
        }
    }

    /// Appends `change` to the journal; the store applies it to the list it keeps itself.
    nonisolated(nonsending) public func record(_ change: TodoChange) async throws(RepositoryError) {
        do {
            try await store.append(change)
        } catch {
            throw .writing(error)
        }
    }

    /// Replaces every stored todo with `todos`, written whole.
    public func replace(with todos: [Todo]) async throws(RepositoryError) {
        do {
            try await store.replace(with: TodoItems(todos))
        } catch {
            throw .writing(error)
        }
    }

    /// Moves the first releases' todos into `store`, once: only while the store has no files.
    /// Returns what could not be read of them. The files are looked for, read and moved on
    /// ``importQueue``, off the cooperative pool.
    nonisolated(nonsending) private func importLegacyFiles() async throws -> [String] {
        let (legacy, store) = (self.legacy, self.store)
        return try await Self.importQueue.run { try Self.importLegacyFiles(legacy, into: store) }
    }

    /// Where ``importLegacyFiles()`` does its blocking file work, one import at a time in the
    /// process: a second load waits for the first's import, then finds nothing left to move.
    private static let importQueue = BlockingQueue(label: "Data.StoredTodoRepository.import")

    private static func importLegacyFiles(_ legacy: LegacyTodoFiles, into store: JournaledStore<TodoItems>)
        throws -> [String]
    {
        guard legacy.exist else { return [] }
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: store.snapshotURL.path)
            || fileManager.fileExists(atPath: store.journalURL.path)
        {
            // Imported before, and the old files' removal was cut short.
            try legacy.remove()
            return []
        }
        let (todos, setAside) = try legacy.read()
        try store.replace(with: TodoItems(todos))
        try legacy.remove()
        return setAside
    }
}
