import Domain
import Foundation
import HeadlessUI
import Reactor

/// The list screen's state machine, and the one writer of the todos: every action changes the
/// ``Domain/TodoBook`` (which saves at once) and publishes the list as it is then, with a
/// status message saying how the change went. The last destructive change (a delete or a
/// clear) can be undone once.
@MainActor
final class TodoReactor: Reactor {
    enum Action: Sendable {
        /// Add a todo titled with a title AddTodo has already checked.
        case add(title: String)
        case toggle(UUID)
        case rename(UUID, String)
        case delete(UUID)
        case clearCompleted
        /// Put back what the last delete or clear removed.
        case undo
        case setFilter(TodoFilter)
    }

    enum Mutation: Sendable {
        case setList(TodoList)
        case setFilter(TodoFilter)
        case setStatus(StatusMessage?)
        /// What `undo` would put back; `nil` when there is nothing to undo.
        case setUndoable([Todo]?)
    }

    struct State: Sendable {
        var list: TodoList
        var filter = TodoFilter.all
        /// The last change's outcome, for the status line.
        var status: StatusMessage?
        /// Counts the statuses set, so that the same sentence twice still shows twice.
        var statusRevision = 0
        /// The todos the last delete or clear removed, which `undo` puts back.
        var undoable: [Todo]?

        /// The todos the screen shows.
        var visible: [Todo] { list.filtered(filter) }
    }

    let initialState: State
    let runtime = ReactorRuntime<TodoReactor>()
    private let book: TodoBook
    private let preferences: (any ScreenPreferencesRepository)?

    /// A reactor over `book`, showing the filter kept in `preferences` (and keeping each filter
    /// chosen there), or every todo when there are no preferences.
    init(book: TodoBook, preferences: (any ScreenPreferencesRepository)? = nil) {
        self.book = book
        self.preferences = preferences
        var status = book.loadError.map { StatusMessage.failure("Todos: \($0)") }
        var filter = TodoFilter.all
        do {
            filter = try preferences?.loadPreferences().filter ?? .all
        } catch {
            status = status ?? .failure("The list's filter could not be read: \(error)")
        }
        initialState = State(list: book.list, filter: filter, status: status)
    }

    func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error> {
        switch action {
        case .setFilter(let filter):
            var status = StatusMessage("Showing \(filter.rawValue) (\(book.list.filtered(filter).count)).")
            do {
                try preferences?.updatePreferences { $0.filter = filter }
            } catch {
                status = .failure("The filter is not kept for the next launch: \(error)")
            }
            return .just(.setFilter(filter), .setStatus(status))
        case .delete(let id):
            guard let todo = book.list.todos.first(where: { $0.id == id }) else {
                return .just(.setStatus(.failure("That todo is gone already.")))
            }
            return destructive(removing: [todo], "Deleted \"\(todo.title)\". Press u to undo.") {
                () throws(TodoError) in try book.delete(id)
            }
        case .clearCompleted:
            let done = book.list.todos.filter(\.isDone)
            guard !done.isEmpty else { return .just(.setStatus(StatusMessage("Nothing to clear."))) }
            return destructive(removing: done, "Cleared \(done.count) done. Press u to undo.") {
                () throws(TodoError) in _ = try book.clearCompleted()
            }
        case .undo:
            guard let undoable = currentState.undoable else {
                return .just(.setStatus(.failure("Nothing to undo.")))
            }
            let status: StatusMessage
            do {
                try book.restore(undoable)
                status = .success(
                    undoable.count == 1
                        ? "Put back \"\(undoable[0].title)\"." : "Put back \(undoable.count) todos.")
            } catch {
                status = .failure(error.description)
            }
            return .just(.setList(book.list), .setUndoable(nil), .setStatus(status))
        case .add, .toggle, .rename:
            let status: StatusMessage?
            do {
                status = try change(action)
            } catch {
                status = .failure(error.description)
            }
            return .just(.setList(book.list), .setStatus(status))
        }
    }

    /// Removes `todos` with `remove`; keeps them for `undo` when it worked.
    private func destructive(
        removing todos: [Todo], _ done: String, _ remove: () throws(TodoError) -> Void
    ) -> AsyncThrowingStream<Mutation, any Error> {
        do {
            try remove()
            return .just(.setList(book.list), .setUndoable(todos), .setStatus(.success(done)))
        } catch {
            return .just(.setList(book.list), .setStatus(.failure(error.description)))
        }
    }

    /// Makes the change in the book; returns what the status line says about it.
    private func change(_ action: Action) throws(TodoError) -> StatusMessage? {
        switch action {
        case .add(let title):
            let todo = try book.add(title: title)
            return .success("Added \"\(todo.title)\".")
        case .toggle(let id):
            try book.toggle(id)
        case .rename(let id, let title):
            try book.rename(id, to: title)
            return .success("Renamed to \"\(try TodoTitle.validated(title))\".")
        default:
            break
        }
        return nil
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setList(let list): state.list = list
        case .setFilter(let filter): state.filter = filter
        case .setStatus(let status):
            state.status = status
            state.statusRevision += 1
        case .setUndoable(let todos): state.undoable = todos
        }
        return state
    }
}
