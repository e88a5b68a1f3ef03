import Domain
import DomainTesting
import Testing

@Suite("ReadableTodos: what a load skipped, as one error")
struct ReadableTodosTests {
    @Test("every skipped part is named in one unreadable error; one part keeps its own error; none is nil")
    func damage() {
        let two = ReadableTodos(
            todos: [],
            skipped: [.unreadable(reason: "snapshot set aside."), .unreadable(reason: "line 3 set aside.")])
        #expect(two.damage == .unreadable(reason: "snapshot set aside. line 3 set aside."))
        let one = ReadableTodos(todos: [], skipped: [.unreadable(reason: "snapshot set aside.")])
        #expect(one.damage == .unreadable(reason: "snapshot set aside."))
        #expect(ReadableTodos(todos: [Todo(title: "milk")]).damage == nil)
    }

    @Test("loadTodos throws what was skipped, for callers that must have every todo")
    func loadTodosThrowsTheDamage() async throws {
        let milk = Todo(title: "milk")
        let repository = InMemoryTodoRepository(
            [milk],
            skipped: [.unreadable(reason: "snapshot set aside."), .unreadable(reason: "line 3 set aside.")])
        #expect(try await repository.loadReadableTodos().todos == [milk])
        await #expect(throws: RepositoryError.unreadable(reason: "snapshot set aside. line 3 set aside.")) {
            try await repository.loadTodos()
        }
        #expect(try await InMemoryTodoRepository([milk]).loadTodos() == [milk])
    }
}
