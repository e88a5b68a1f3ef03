import Domain
import Foundation
import Reactor

/// The list screen's state machine, and the one writer of the todos: every action changes the
/// ``Domain/TodoBook`` (which saves at once) and publishes the list as it is then, with a
/// status line saying how the change went.
@MainActor
final class TodoReactor: Reactor {
    enum Action: Sendable {
        /// Add a todo titled with a title AddTodo has already checked.
        case add(title: String)
        case toggle(UUID)
        case rename(UUID, String)
        case delete(UUID)
        case clearCompleted
        case setFilter(TodoFilter)
    }

    enum Mutation: Sendable {
        case setList(TodoList)
        case setFilter(TodoFilter)
        case setStatus(String?)
    }

    struct State: Sendable {
        var list: TodoList
        var filter = TodoFilter.all
        /// The last change's outcome, for the status line.
        var status: String?

        /// The todos the screen shows.
        var visible: [Todo] { list.filtered(filter) }
    }

    let initialState: State
    let runtime = ReactorRuntime<TodoReactor>()
    private let book: TodoBook

    init(book: TodoBook) {
        self.book = book
        initialState = State(list: book.list, status: book.loadError.map { "Todos: \($0)" })
    }

    func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error> {
        if case .setFilter(let filter) = action { return .just(.setFilter(filter), .setStatus(nil)) }
        let status: String?
        do {
            status = try change(action)
        } catch {
            status = error.description
        }
        return .just(.setList(book.list), .setStatus(status))
    }

    /// Makes the change in the book; returns what the status line says about it.
    private func change(_ action: Action) throws(TodoError) -> String? {
        switch action {
        case .add(let title):
            let todo = try book.add(title: title)
            return "Added \"\(todo.title)\"."
        case .toggle(let id):
            try book.toggle(id)
        case .rename(let id, let title):
            try book.rename(id, to: title)
        case .delete(let id):
            try book.delete(id)
        case .clearCompleted:
            let removed = try book.clearCompleted()
            return removed == 0 ? "Nothing to clear." : "Cleared \(removed) done."
        case .setFilter:
            break
        }
        return nil
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setList(let list): state.list = list
        case .setFilter(let filter): state.filter = filter
        case .setStatus(let status): state.status = status
        }
        return state
    }
}
