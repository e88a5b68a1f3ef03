import Domain
import DomainTesting
import Foundation
import Testing

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
        #expect(repository.savedTodos.map(\.title) == ["eggs"])
        #expect(repository.saveCount == 4)
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
        #expect(repository.savedTodos.map(\.title) == ["milk", "eggs"])
    }

    @Test("a store that skipped damaged parts opens the book with the rest, and names every part")
    func skippedParts() {
        let milk = Todo(title: "milk")
        let repository = InMemoryTodoRepository(
            [milk],
            skipped: [.unreadable(reason: "snapshot set aside."), .unreadable(reason: "line 3 set aside.")])
        let book = TodoBook(repository: repository)
        #expect(book.list.todos == [milk])
        #expect(book.loadError == .unreadable(reason: "snapshot set aside. line 3 set aside."))
        #expect(throws: RepositoryError.unreadable(reason: "snapshot set aside. line 3 set aside.")) {
            try repository.loadTodos()
        }
    }

    @Test("a store that skipped one part reports that part's error as it is")
    func oneSkippedPart() {
        let book = TodoBook(
            repository: InMemoryTodoRepository([], skipped: [.unreadable(reason: "snapshot set aside.")]))
        #expect(book.loadError == .unreadable(reason: "snapshot set aside."))
        #expect(TodoBook(repository: InMemoryTodoRepository([Todo(title: "milk")])).loadError == nil)
    }

    @Test("an unreadable store opens an empty book and says why")
    func unreadableStore() {
        let book = TodoBook(repository: InMemoryTodoRepository(loadFailure: .unreadable(reason: "moved")))
        #expect(book.list.todos.isEmpty)
        #expect(book.loadError == .unreadable(reason: "moved"))
    }
}
