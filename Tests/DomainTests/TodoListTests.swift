import Domain
import Foundation
import Testing

@Suite(
    "TodoList: each change is worked out from the list as it is, or refused, then applied as a store applies it"
)
struct TodoListTests {
    /// A list of `titles`, none done.
    private func list(_ titles: [String]) -> TodoList {
        TodoList(titles.map { Todo(title: $0) })
    }

    @Test("adding trims the title and goes at the end; empty and overlong titles are refused")
    func adding() throws {
        var list = TodoList()
        let now = Date(timeIntervalSinceReferenceDate: 42)
        let change = try list.adding(title: "  buy milk \n", now: now)
        guard case .added(let milk) = change else {
            Issue.record("expected an added todo, got \(change)")
            return
        }
        #expect(milk.title == "buy milk" && !milk.isDone && milk.createdAt == now)
        #expect(list.todos.isEmpty, "working out a change changes nothing")
        list.apply(change)
        list.apply(try list.adding(title: "walk the dog"))
        #expect(list.todos.map(\.title) == ["buy milk", "walk the dog"])
        #expect(throws: TodoError.emptyTitle) { try list.adding(title: " \n ") }
        #expect(throws: TodoError.titleTooLong(limit: TodoTitle.maximumLength)) {
            try list.adding(title: String(repeating: "x", count: TodoTitle.maximumLength + 1))
        }
    }

    @Test("toggling, renaming and deleting act on one todo, which keeps its place; an unknown id is notFound")
    func changesToOneTodo() throws {
        var list = list(["milk", "bread", "jam"])
        let (milk, bread) = (list.todos[0], list.todos[1])
        list.apply(try list.toggling(milk.id))
        list.apply(try list.renaming(bread.id, to: " rye bread "))
        #expect(list.todos.map(\.isDone) == [true, false, false])
        #expect(list.todos.map(\.title) == ["milk", "rye bread", "jam"])
        #expect(try list.todo(bread.id).id == bread.id, "a renamed todo is the same todo")
        #expect(throws: TodoError.emptyTitle) { try list.renaming(bread.id, to: "") }
        #expect(try list.deleting(milk.id) == .deleted([milk.id]))
        list.apply(try list.deleting(milk.id))
        #expect(list.todos.map(\.title) == ["rye bread", "jam"])
        let gone = milk.id
        #expect(throws: TodoError.notFound(gone)) { try list.toggling(gone) }
        #expect(throws: TodoError.notFound(gone)) { try list.renaming(gone, to: "milk") }
        #expect(throws: TodoError.notFound(gone)) { try list.deleting(gone) }
    }

    @Test("filters, and clearing what is done in one change; nothing to clear is no change")
    func filtersAndClear() throws {
        var list = list(["a", "b", "c"])
        list.apply(try list.toggling(list.todos[1].id))
        #expect(list.filtered(.all).map(\.title) == ["a", "b", "c"])
        #expect(list.filtered(.active).map(\.title) == ["a", "c"])
        #expect(list.filtered(.done).map(\.title) == ["b"])
        #expect(list.activeCount == 2)
        let clear = try #require(list.clearingCompleted())
        #expect(clear == .deleted([list.todos[1].id]))
        list.apply(clear)
        #expect(list.todos.map(\.title) == ["a", "c"])
        #expect(list.clearingCompleted() == nil)
    }

    @Test(
        "restoring puts deleted todos back at the end as they were, one change each, and skips those still there"
    )
    func restoring() throws {
        var list = list(["a", "b", "c"])
        let (a, b) = (list.todos[0], list.todos[1])
        list.apply(try list.toggling(b.id))
        let doneB = try list.todo(b.id)
        list.apply(try list.deleting(b.id))
        let changes = list.restoring([doneB, a])
        #expect(changes == [.added(doneB)], "a is still in the list")
        for change in changes { list.apply(change) }
        #expect(list.todos.map(\.title) == ["a", "c", "b"])
        #expect(try list.todo(b.id) == doneB, "the same todo, done, not a copy")
    }
}
