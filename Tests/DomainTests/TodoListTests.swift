import Domain
import Foundation
import Testing

@Suite("TodoList: every change either applies or throws and leaves the list as it was")
struct TodoListTests {
    @Test("add trims the title, keeps order, and refuses empty and overlong titles")
    func add() throws {
        var list = TodoList()
        let first = try list.add(title: "  buy milk \n")
        try list.add(title: "walk the dog")
        #expect(first.title == "buy milk")
        #expect(list.todos.map(\.title) == ["buy milk", "walk the dog"])
        #expect(throws: TodoError.emptyTitle) { try list.add(title: " \n ") }
        #expect(throws: TodoError.titleTooLong(limit: TodoTitle.maximumLength)) {
            try list.add(title: String(repeating: "x", count: TodoTitle.maximumLength + 1))
        }
        #expect(list.todos.count == 2)
    }

    @Test("toggle, rename and delete act on one todo; an unknown id is notFound")
    func changes() throws {
        var list = TodoList()
        let milk = try list.add(title: "milk")
        let bread = try list.add(title: "bread")
        try list.toggle(milk.id)
        try list.rename(bread.id, to: "rye bread")
        #expect(list.todos.map(\.isDone) == [true, false])
        #expect(list.todos[1].title == "rye bread")
        #expect(throws: TodoError.emptyTitle) { try list.rename(bread.id, to: "") }
        try list.delete(milk.id)
        #expect(list.todos.map(\.title) == ["rye bread"])
        let gone = milk.id
        #expect(throws: TodoError.notFound(gone)) { try list.toggle(gone) }
    }

    @Test("filters and clear completed")
    func filtersAndClear() throws {
        var list = TodoList()
        for title in ["a", "b", "c"] { try list.add(title: title) }
        try list.toggle(list.todos[1].id)
        #expect(list.filtered(.all).map(\.title) == ["a", "b", "c"])
        #expect(list.filtered(.active).map(\.title) == ["a", "c"])
        #expect(list.filtered(.done).map(\.title) == ["b"])
        #expect(list.activeCount == 2)
        #expect(list.clearCompleted() == 1)
        #expect(list.todos.map(\.title) == ["a", "c"])
        #expect(list.clearCompleted() == 0)
    }
}
