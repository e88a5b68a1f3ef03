import Domain
import Synchronization

/// Todos kept in memory only, for tests and previews. Loads and saves can be made to fail, to see
/// how screens report a store that cannot be read or written, and saves can be held, to see
/// what a screen does while a store waits (for the disk, or another process's lock).
public final class InMemoryTodoRepository: TodoRepository {
    private struct Contents {
        var todos: [Todo]
        var saves = 0
        var loadFailure: RepositoryError?
        var skipped: [RepositoryError]
        var saveFailure: RepositoryError?
        var holdsSaves = false
        var heldSaves: [CheckedContinuation<Void, Never>] = []
    }

    private let contents: Mutex<Contents>

    /// A repository holding `todos`. With `skipped`, loading reports those parts as unreadable
    /// along with the todos, as a store that set damage aside does; with `loadFailure`, loading
    /// throws it instead.
    public init(_ todos: [Todo] = [], skipped: [RepositoryError] = [], loadFailure: RepositoryError? = nil) {
        contents = Mutex(Contents(todos: todos, loadFailure: loadFailure, skipped: skipped))
    }

    /// The list as the last successful ``record(_:)`` left it.
    public var savedTodos: [Todo] { contents.withLock { $0.todos } }
    /// How many changes were recorded without a failure.
    public var saveCount: Int { contents.withLock { $0.saves } }
    /// How many saves are waiting for ``releaseSaves()``.
    public var heldSaveCount: Int { contents.withLock { $0.heldSaves.count } }

    /// Makes every later save fail with `failure`, or succeed again with `nil`.
    public func failSaves(with failure: RepositoryError?) {
        contents.withLock { $0.saveFailure = failure }
    }

    /// Makes every later save wait, before it is recorded or fails, until ``releaseSaves()``.
    public func holdSaves() {
        contents.withLock { $0.holdsSaves = true }
    }

    /// Returns once `count` saves wait for ``releaseSaves()``, checking every millisecond.
    ///
    /// - Throws: ``SavesNotHeld`` when they are not there after `timeout`, so that a test whose
    ///   save never comes fails instead of waiting for ever.
    public func untilSavesAreHeld(_ count: Int = 1, timeout: Duration = .seconds(600)) async throws {
        let deadline = ContinuousClock.now + timeout
        while heldSaveCount < count {
            guard ContinuousClock.now < deadline else {
                throw SavesNotHeld(expected: count, held: heldSaveCount, timeout: timeout)
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Lets the held saves go on, in the order they came, and no longer holds later ones.
    public func releaseSaves() {
        let held = contents.withLock { contents in
            contents.holdsSaves = false
            defer { contents.heldSaves = [] }
            return contents.heldSaves
        }
        for save in held { save.resume() }
    }

    /// The todos held with the parts given as skipped, or the load failure given at creation.
    nonisolated(nonsending) public func loadReadableTodos() async throws(RepositoryError) -> ReadableTodos {
        let (loaded, failure) = contents.withLock {
            (ReadableTodos(todos: $0.todos, skipped: $0.skipped), $0.loadFailure)
        }
        if let failure { throw failure }
        return loaded
    }

    /// Applies `change` to the todos held, or throws the failure set with ``failSaves(with:)``;
    /// first waits while saves are held (``holdSaves()``).
    nonisolated(nonsending) public func record(_ change: TodoChange) async throws(RepositoryError) {
        await withCheckedContinuation { (held: CheckedContinuation<Void, Never>) in
            let goesOn = contents.withLock { contents in
                guard contents.holdsSaves else { return true }
                contents.heldSaves.append(held)
                return false
            }
            if goesOn { held.resume() }
        }
        let failure: RepositoryError? = contents.withLock { contents in
            if let failure = contents.saveFailure { return failure }
            change.apply(to: &contents.todos)
            contents.saves += 1
            return nil
        }
        if let failure { throw failure }
    }
}

/// Fewer saves waited for ``InMemoryTodoRepository/releaseSaves()`` than a test awaited.
public struct SavesNotHeld: Error, CustomStringConvertible {
    /// How many held saves the test waited for.
    public let expected: Int
    /// How many there were when it gave up.
    public let held: Int
    /// How long it waited.
    public let timeout: Duration

    /// What the failing test reports.
    /// What the failing test reports.
    public var description: String { "waited \(timeout) for \(expected) held save(s); \(held) came" }
}
