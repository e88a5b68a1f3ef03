import Domain
import Foundation
import Synchronization
import Testing

/// A repository in memory that can be told to fail.
final class InMemoryTodoRepository: TodoRepository {
    private let state:
        Mutex<(todos: [Todo], saves: Int, failure: RepositoryError?, loadFailure: RepositoryError?)>

    init(_ todos: [Todo] = [], loadFailure: RepositoryError? = nil) {
        state = Mutex((todos, 0, nil, loadFailure))
    }

    var saved: [Todo] { state.withLock { $0.todos } }
    var saves: Int { state.withLock { $0.saves } }
    func failSaves(with error: RepositoryError?) { state.withLock { $0.failure = error } }

    func loadTodos() throws(RepositoryError) -> [Todo] {
        let (todos, failure) = state.withLock { ($0.todos, $0.loadFailure) }
        if let failure { throw failure }
        return todos
    }

    func saveTodos(_ todos: [Todo]) throws(RepositoryError) {
        let failure: RepositoryError? = state.withLock { state in
            if let failure = state.failure { return failure }
            state.todos = todos
            state.saves += 1
            return nil
        }
        if let failure { throw failure }
    }
}

@MainActor
@Suite("TodoBook: changes are saved at once; failures are typed and keep the change in memory")
struct TodoBookTests {
    @Test("each change is saved")
    func savesEachChange() throws {
        let repository = InMemoryTodoRepository()
        let book = TodoBook(repository: repository)
        let milk = try book.add(title: "milk")
        try book.toggle(milk.id)
        try book.add(title: "eggs")
        #expect(try book.clearCompleted() == 1)
        #expect(repository.saved.map(\.title) == ["eggs"])
        #expect(repository.saves == 4)
        #expect(TodoBook(repository: repository).list == book.list)
    }

    @Test("a failed save throws notSaved and keeps the change in memory")
    func failedSave() throws {
        let repository = InMemoryTodoRepository()
        let book = TodoBook(repository: repository)
        repository.failSaves(with: .unwritable(reason: "disk full"))
        #expect(throws: TodoError.notSaved(.unwritable(reason: "disk full"))) { try book.add(title: "milk") }
        #expect(book.list.todos.map(\.title) == ["milk"])
        repository.failSaves(with: nil)
        try book.add(title: "eggs")
        #expect(repository.saved.map(\.title) == ["milk", "eggs"])
    }

    @Test("an unreadable store opens an empty book and says why")
    func unreadableStore() {
        let book = TodoBook(repository: InMemoryTodoRepository(loadFailure: .unreadable(reason: "moved")))
        #expect(book.list.todos.isEmpty)
        #expect(book.loadError == .unreadable(reason: "moved"))
    }
}

@MainActor
@Suite("ActivityTracker")
struct ActivityTrackerTests {
    @Test("waitUntilIdle returns once every begun activity ended")
    func waitsForActivities() async {
        let tracker = ActivityTracker()
        await tracker.waitUntilIdle()
        tracker.begin()
        tracker.begin()
        var finished = false
        let waiter = Task { @MainActor in
            await tracker.waitUntilIdle()
            finished = true
        }
        await Task.yield()
        tracker.end()
        await Task.yield()
        #expect(!finished)
        tracker.end()
        await waiter.value
        #expect(finished)
        tracker.end()
        #expect(tracker.count == 0)
    }
}
