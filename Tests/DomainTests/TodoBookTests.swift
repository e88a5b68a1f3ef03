import Domain
import DomainTesting
import Foundation
import Synchronization
import Testing

@MainActor
@Suite("TodoBook: changes are saved at once; failures are typed and keep the change in memory")
struct TodoBookTests {
    /// A book over `repository`, opened.
    private func opened(_ repository: InMemoryTodoRepository) async -> TodoBook {
        let book = TodoBook(repository: repository)
        await book.open()
        return book
    }

    @Test("each change is saved")
    func savesEachChange() async throws {
        let repository = InMemoryTodoRepository()
        let book = await opened(repository)
        let milk = try await book.add(title: "milk")
        try await book.toggle(milk.id)
        try await book.add(title: "eggs")
        #expect(try await book.clearCompleted() == 1)
        #expect(repository.savedTodos.map(\.title) == ["eggs"])
        #expect(repository.saveCount == 4)
        #expect(await opened(repository).list == book.list)
    }

    @Test("a failed save throws notSaved and keeps the change in memory")
    func failedSave() async throws {
        let repository = InMemoryTodoRepository()
        let book = await opened(repository)
        repository.failSaves(with: .unwritable(reason: "disk full"))
        await #expect(throws: TodoError.notSaved(.unwritable(reason: "disk full"))) {
            try await book.add(title: "milk")
        }
        #expect(book.list.todos.map(\.title) == ["milk"])
        repository.failSaves(with: nil)
        try await book.add(title: "eggs")
        #expect(repository.savedTodos.map(\.title) == ["milk", "eggs"])
    }

    @Test("a change awaits its save without holding the main actor, and returns once it is saved")
    func changeAwaitsItsSave() async throws {
        let repository = InMemoryTodoRepository()
        let book = await opened(repository)
        repository.holdSaves()
        let adding = Task { try await book.add(title: "milk") }
        try await repository.untilSavesAreHeld()
        // This test runs on the main actor too: it gets here while the save waits.
        #expect(book.list.todos.map(\.title) == ["milk"], "the change is in memory at once")
        #expect(repository.saveCount == 0)
        repository.releaseSaves()
        #expect(try await adding.value.title == "milk")
        #expect(repository.savedTodos.map(\.title) == ["milk"])
    }

    @Test("a book is empty until opened; opening twice reads once")
    func opensOnce() async throws {
        let repository = InMemoryTodoRepository([Todo(title: "milk")])
        let book = TodoBook(repository: repository)
        #expect(book.list.todos.isEmpty && !book.isOpen)
        await book.open()
        try await book.add(title: "eggs")
        await book.open()
        #expect(book.list.todos.map(\.title) == ["milk", "eggs"], "a second open keeps the changes")
    }

    @Test("a second open while the first is still reading returns with what was read, not an empty book")
    func concurrentOpens() async {
        let milk = Todo(title: "milk")
        let repository = GatedLoadRepository(todos: [milk])
        let book = TodoBook(repository: repository)
        let first = Task { await book.open() }
        await repository.loadStarted()
        // On the main actor, as the book: this task runs only once the second open below waits.
        let release = Task { repository.releaseLoad() }
        await book.open()
        #expect(book.list.todos == [milk], "the second open returned before the read was done")
        await first.value
        await release.value
    }

    @Test("a store that skipped damaged parts opens the book with the rest, and names every part")
    func skippedParts() async {
        let milk = Todo(title: "milk")
        let repository = InMemoryTodoRepository(
            [milk],
            skipped: [.unreadable(reason: "snapshot set aside."), .unreadable(reason: "line 3 set aside.")])
        let book = await opened(repository)
        #expect(book.list.todos == [milk])
        #expect(book.loadError == .unreadable(reason: "snapshot set aside. line 3 set aside."))
        await #expect(throws: RepositoryError.unreadable(reason: "snapshot set aside. line 3 set aside.")) {
            try await repository.loadTodos()
        }
    }

    @Test("a store that skipped one part reports that part's error as it is")
    func oneSkippedPart() async {
        let book = await opened(
            InMemoryTodoRepository([], skipped: [.unreadable(reason: "snapshot set aside.")]))
        #expect(book.loadError == .unreadable(reason: "snapshot set aside."))
        #expect(await opened(InMemoryTodoRepository([Todo(title: "milk")])).loadError == nil)
    }

    @Test("an unreadable store opens an empty book and says why")
    func unreadableStore() async {
        let book = await opened(InMemoryTodoRepository(loadFailure: .unreadable(reason: "moved")))
        #expect(book.list.todos.isEmpty)
        #expect(book.loadError == .unreadable(reason: "moved"))
    }
}

/// A repository whose load waits until ``releaseLoad()``, to open a book while a read is on its
/// way.
private final class GatedLoadRepository: TodoRepository {
    private struct Gate {
        var started: [CheckedContinuation<Void, Never>] = []
        var hasStarted = false
        var release: CheckedContinuation<Void, Never>?
        var isReleased = false
    }
    private let todos: [Todo]
    private let gate = Mutex(Gate())

    init(todos: [Todo]) { self.todos = todos }

    /// Returns once a load has begun.
    func loadStarted() async {
        await withCheckedContinuation { continuation in
            let resumeNow = gate.withLock { gate in
                if gate.hasStarted { return true }
                gate.started.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Lets the waiting load (or the next one) finish.
    func releaseLoad() {
        let waiting = gate.withLock { gate in
            gate.isReleased = true
            return gate.release.take()
        }
        waiting?.resume()
    }

    func loadReadableTodos() async throws(RepositoryError) -> ReadableTodos {
        let watchers = gate.withLock { gate in
            gate.hasStarted = true
            defer { gate.started = [] }
            return gate.started
        }
        for watcher in watchers { watcher.resume() }
        await withCheckedContinuation { continuation in
            let resumeNow = gate.withLock { gate in
                if gate.isReleased { return true }
                gate.release = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
        return ReadableTodos(todos: todos, skipped: [])
    }

    func record(_ change: TodoChange, todos: [Todo]) async throws(RepositoryError) {}
}
