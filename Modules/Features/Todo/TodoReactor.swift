import Domain
import Foundation
import HeadlessUI
import Reactor

/// The list screen's state machine, and the one writer of the todos: it opens the
/// ``Domain/TodoBook`` (``Action/load``), and every later action changes the book, awaits the
/// save, and publishes the list as it is then, with a status message saying how the change
/// went. The last destructive change (a delete or a clear) can be undone once.
@MainActor
final class TodoReactor: Reactor {
    enum Action: Sendable {
        /// Open the book and read the filter kept last time: the first action, sent on
        /// activation.
        case load
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
        /// The book is open: the list is what was stored, shown with the kept filter, and why
        /// it is not (`notRead`) when another process kept the data from being read. One
        /// mutation, so the screen gets one state for it: with 10,000 todos each state it
        /// presents filters the list and reloads the table.
        case setLoaded(TodoList, filter: TodoFilter, notRead: String? = nil)
    }

    struct State: Sendable {
        var list: TodoList
        /// Whether the list is what was stored; until then it is empty, not read yet.
        var isLoaded = false
        /// Why the stored todos are not on the list though it is loaded: another process kept
        /// the data folder for the whole read. The empty list says so, and what to do, instead
        /// of inviting a first todo as if there were none.
        var notRead: String?
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
    /// chosen there), or every todo when there are no preferences. It shows an empty list until
    /// ``Action/load`` has opened the book.
    init(book: TodoBook, preferences: (any ScreenPreferencesRepository)? = nil) {
        self.book = book
        self.preferences = preferences
        initialState = State(list: book.list)
    }

    func mutate(action: Action) -> Mutations<Mutation> {
        switch action {
        case .load:
            return mutations { reactor in await reactor.load() }
        case .setFilter(let filter):
            return mutations { reactor in await reactor.keep(filter) }
        case .delete(let id):
            guard let todo = book.list.todos.first(where: { $0.id == id }) else {
                return .just(.setStatus(.failure("That todo is gone already.")))
            }
            return destructive(removing: [todo], "Deleted \"\(todo.title)\". Press u to undo.") {
                (book) async throws(TodoError) in try await book.delete(id)
            }
        case .clearCompleted:
            let done = book.list.todos.filter(\.isDone)
            guard !done.isEmpty else { return .just(.setStatus(StatusMessage("Nothing to clear."))) }
            return destructive(removing: done, "Cleared \(done.count) done. Press u to undo.") {
                (book) async throws(TodoError) in _ = try await book.clearCompleted()
            }
        case .undo:
            guard let undoable = currentState.undoable else {
                return .just(.setStatus(.failure("Nothing to undo.")))
            }
            return mutations { reactor in
                let status: StatusMessage
                do throws(TodoError) {
                    try await reactor.book.restore(undoable)
                    status = .success(
                        undoable.count == 1
                            ? "Put back \"\(undoable[0].title)\"." : "Put back \(undoable.count) todos.")
                } catch {
                    status = .failure(error.description)
                }
                return [.setList(reactor.book.list), .setUndoable(nil), .setStatus(status)]
            }
        case .add, .toggle, .rename:
            return mutations { reactor in
                let status: StatusMessage?
                do throws(TodoError) {
                    status = try await reactor.change(action)
                } catch {
                    status = .failure(error.description)
                }
                return [.setList(reactor.book.list), .setStatus(status)]
            }
        }
    }

    /// The mutations `work` returns, once it has run on the main actor. The book's changes await
    /// their saves there: the screen goes on drawing meanwhile, and the next action waits its
    /// turn (``Reactor``), so a late save never overwrites a later action's state.
    private func mutations(_ work: @escaping @MainActor (TodoReactor) async -> [Mutation])
        -> Mutations<Mutation>
    {
        .run { [self] send in
            for mutation in await work(self) { send(mutation) }
        }
    }

    /// Opens the book and reads the filter kept last time; the status line says what could not
    /// be read.
    private func load() async -> [Mutation] {
        // Both at once: each waits for its store's queue, and the first frame waits for both.
        async let kept = Self.keptFilter(in: preferences)
        await book.open()
        var status = book.loadError.map { StatusMessage.failure("Todos: \($0)") }
        var notRead: String?
        if case .inUse(let location, let waited) = book.loadError {
            // Not "unreadable": the data is intact, and this launch only could not get at it.
            status = .failure("Data folder in use by another process: todos not read, nothing changed.")
            notRead = """
                The todos were not read: another process kept \(location) in use for \(waited). \
                Nothing was changed, and the stored todos are intact. Quit (q), let that process \
                finish (another TodoApp?), and start the app again.
                """
        }
        var filter = TodoFilter.all
        switch await kept {
        case .success(let keptFilter): filter = keptFilter
        case .failure(let error): status = status ?? .failure("The list's filter could not be read: \(error)")
        }
        var mutations: [Mutation] = [.setLoaded(book.list, filter: filter, notRead: notRead)]
        if let status { mutations.append(.setStatus(status)) }
        return mutations
    }

    /// The filter kept in `preferences`; every todo when there are none.
    nonisolated private static func keptFilter(in preferences: (any ScreenPreferencesRepository)?) async
        -> Result<TodoFilter, RepositoryError>
    {
        do throws(RepositoryError) {
            return .success(try await preferences?.loadPreferences().filter ?? .all)
        } catch {
            return .failure(error)
        }
    }

    /// Shows `filter` and keeps it for the next launch.
    private func keep(_ filter: TodoFilter) async -> [Mutation] {
        var status = StatusMessage("Showing \(filter.rawValue) (\(book.list.filtered(filter).count)).")
        do {
            try await preferences?.updatePreferences { $0.filter = filter }
        } catch {
            status = .failure("The filter is not kept for the next launch: \(error)")
        }
        return [.setFilter(filter), .setStatus(status)]
    }

    /// Removes `todos` with `remove`; keeps them for `undo` when it worked.
    private func destructive(
        removing todos: [Todo], _ done: String,
        _ remove: @escaping @MainActor (TodoBook) async throws(TodoError) -> Void
    ) -> Mutations<Mutation> {
        mutations { reactor in
            do throws(TodoError) {
                try await remove(reactor.book)
                return [.setList(reactor.book.list), .setUndoable(todos), .setStatus(.success(done))]
            } catch {
                return [.setList(reactor.book.list), .setStatus(.failure(error.description))]
            }
        }
    }

    /// Makes the change in the book; returns what the status line says about it.
    private func change(_ action: Action) async throws(TodoError) -> StatusMessage? {
        switch action {
        case .add(let title):
            let todo = try await book.add(title: title)
            return .success("Added \"\(todo.title)\".")
        case .toggle(let id):
            try await book.toggle(id)
        case .rename(let id, let title):
            try await book.rename(id, to: title)
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
        case .setLoaded(let list, let filter, let notRead):
            state.list = list
            state.filter = filter
            state.isLoaded = true
            state.notRead = notRead
        }
        return state
    }
}
