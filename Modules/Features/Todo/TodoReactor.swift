import Domain
import Foundation
import Reactor

/// The list screen's state machine, and the one owner of the todos in memory: its state's
/// ``State/list`` is the one list above the store. ``Action/load`` reads it from the
/// ``Domain/TodoRepository``; every later command works out its change from that list with
/// ``Domain/TodoList``, awaits the repository's record of it, and then makes it in one mutation
/// that also says how it went, in a ``Domain/Notice`` for the screen to post. The last
/// destructive change (a delete or a clear) can be undone once.
@MainActor
final class TodoReactor: Reactor {
    enum Action: Sendable {
        /// Read the todos and the filter kept last time: the first action, sent on activation.
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
        /// The todos were read: the list is what was stored, shown with the kept filter, and why
        /// it is not (`notRead`) when another process kept the data from being read. One
        /// mutation, so the screen gets one state for it: with 10,000 todos each state it
        /// presents filters the list and reloads the table.
        case load(TodoList, filter: TodoFilter, notRead: String?, notice: Notice?)
        /// A command's changes, recorded, or made in memory only when recording failed (the
        /// notice says so); what `undo` would put back from now on; and the notice, which
        /// replaces the screen's last (`nil` clears it).
        case change([TodoChange], undo: Undo, notice: Notice?)
        case filter(TodoFilter, notice: Notice)
        /// A command that changed nothing says why.
        case refuse(Notice)
    }

    /// What a change does to the todos that `undo` puts back.
    enum Undo: Sendable {
        /// They stay as they were.
        case keep
        /// These, which the change removed.
        case remember([Todo])
        /// None any more.
        case forget
    }

    struct State: Sendable {
        /// The todos as they are now, recorded or not; empty until ``Action/load`` read them.
        var list = TodoList()
        /// Whether the list is what was stored; until then it is empty, not read yet.
        var isLoaded = false
        /// Why the stored todos are not on the list though it is loaded: another process kept
        /// the data folder for the whole read. The empty list says so, and what to do, instead
        /// of inviting a first todo as if there were none.
        var notRead: String?
        var filter = TodoFilter.all
        /// The changes the last mutation made, for the screen to follow them: it selects a todo
        /// just added. Empty after any other mutation.
        var lastChanges: [TodoChange] = []
        /// What the last command that said something said, for the status line: a pulse, so
        /// that the same sentence twice still shows twice (`nil` clears the line).
        var notice = Pulse<Notice?>(nil)
        /// The todos the last delete or clear removed, which `undo` puts back.
        var undoable: [Todo]?

        /// The todos the screen shows.
        var visible: [Todo] { list.filtered(filter) }
    }

    let initialState = State()
    let runtime = ReactorRuntime<TodoReactor>()
    private let repository: any TodoRepository
    private let preferences: (any ScreenPreferencesRepository)?
    private let clock: @Sendable () -> Date

    /// A reactor over the todos kept in `repository`, showing the filter kept in `preferences`
    /// (and keeping each filter chosen there), or every todo when there are no preferences. It
    /// shows an empty list until ``Action/load`` has read the todos.
    init(
        repository: any TodoRepository, preferences: (any ScreenPreferencesRepository)? = nil,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.repository = repository
        self.preferences = preferences
        self.clock = clock
    }

    func mutate(action: Action) -> Mutations<Mutation> {
        let list = currentState.list
        switch action {
        case .load:
            // A second activation finds the todos read, and changed since: they stay.
            guard !currentState.isLoaded else { return .empty() }
            return .run { [self] send in send(await load()) }
        case .setFilter(let filter):
            return .run { [self] send in send(await keep(filter)) }
        case .add(let title):
            return record { () throws(TodoError) in
                let change = try list.adding(title: title, now: clock())
                return ([change], .keep, change.todo.map { .success("Added \"\($0.title)\".") })
            }
        case .toggle(let id):
            return record { () throws(TodoError) in ([try list.toggling(id)], .keep, nil) }
        case .rename(let id, let title):
            return record { () throws(TodoError) in
                let change = try list.renaming(id, to: title)
                return ([change], .keep, change.todo.map { .success("Renamed to \"\($0.title)\".") })
            }
        case .delete(let id):
            guard let todo = list.todos.first(where: { $0.id == id }) else {
                return .just(.refuse(.failure("That todo is gone already.")))
            }
            return record { () throws(TodoError) in
                (
                    [try list.deleting(id)], .remember([todo]),
                    .success("Deleted \"\(todo.title)\". Press u to undo.")
                )
            }
        case .clearCompleted:
            guard let change = list.clearingCompleted() else {
                return .just(.refuse(Notice("Nothing to clear.")))
            }
            let done = list.todos.filter(\.isDone)
            return record { () throws(TodoError) in
                ([change], .remember(done), .success("Cleared \(done.count) done. Press u to undo."))
            }
        case .undo:
            guard let undoable = currentState.undoable else {
                return .just(.refuse(.failure("Nothing to undo.")))
            }
            let notice = Notice.success(
                undoable.count == 1
                    ? "Put back \"\(undoable[0].title)\"." : "Put back \(undoable.count) todos.")
            return record(undo: .forget) { () throws(TodoError) in (list.restoring(undoable), .forget, notice)
            }
        }
    }

    /// The changes `work` works out from the list, recorded one by one, then made in one
    /// mutation with the notice it gives. A refused change (`TodoError`) is a notice and
    /// changes nothing. A failed record stops the recording there; every change is still made
    /// in memory, the notice says what was not saved, and `undo` is left as `failure`
    /// says. The next action waits until this one is made (``Reactor``), so it works from the
    /// list this one left.
    private func record(
        undo failure: Undo = .keep,
        _ work: () throws(TodoError) -> (changes: [TodoChange], undo: Undo, notice: Notice?)
    ) -> Mutations<Mutation> {
        let planned: (changes: [TodoChange], undo: Undo, notice: Notice?)
        do {
            planned = try work()
        } catch {
            return .just(.refuse(.failure(error.description)))
        }
        let repository = self.repository
        return .run { send in
            do throws(RepositoryError) {
                for change in planned.changes { try await repository.record(change) }
                send(.change(planned.changes, undo: planned.undo, notice: planned.notice))
            } catch {
                let notSaved = TodoError.notSaved(error)
                send(.change(planned.changes, undo: failure, notice: .failure(notSaved.description)))
            }
        }
    }

    /// Reads the todos and the filter kept last time; the status line says what could not be
    /// read.
    private func load() async -> Mutation {
        // Both at once: each waits for its store's queue, and the first frame waits for both.
        async let kept = Self.keptFilter(in: preferences)
        var todos = TodoList()
        var loadError: RepositoryError?
        do {
            let loaded = try await repository.loadReadableTodos()
            todos = TodoList(loaded.todos)
            loadError = loaded.damage
        } catch {
            loadError = error
        }
        var notice = loadError.map { Notice.failure("Todos: \($0)") }
        var notRead: String?
        if case .inUse(let location, let waited) = loadError {
            // Not "unreadable": the data is intact, and this launch only could not get at it.
            notice = .failure("Data folder in use by another process: todos not read, nothing changed.")
            notRead = """
                The todos were not read: another process kept \(location) in use for \(waited). \
                Nothing was changed, and the stored todos are intact. Quit (q), let that process \
                finish (another TodoApp?), and start the app again.
                """
        }
        var filter = TodoFilter.all
        switch await kept {
        case .success(let keptFilter): filter = keptFilter
        case .failure(let error): notice = notice ?? .failure("The list's filter could not be read: \(error)")
        }
        return .load(todos, filter: filter, notRead: notRead, notice: notice)
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
    private func keep(_ filter: TodoFilter) async -> Mutation {
        var notice = Notice(
            "Showing \(filter.rawValue) (\(currentState.list.filtered(filter).count)).")
        do {
            try await preferences?.updatePreferences { $0.filter = filter }
        } catch {
            notice = .failure("The filter is not kept for the next launch: \(error)")
        }
        return .filter(filter, notice: notice)
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        state.lastChanges = []
        switch mutation {
        case .load(let list, let filter, let notRead, let notice):
            state.list = list
            state.filter = filter
            state.isLoaded = true
            state.notRead = notRead
            if let notice { state.notice.value = notice }
        case .change(let changes, let undo, let notice):
            for change in changes { state.list.apply(change) }
            state.lastChanges = changes
            switch undo {
            case .keep: break
            case .remember(let todos): state.undoable = todos
            case .forget: state.undoable = nil
            }
            state.notice.value = notice
        case .filter(let filter, let notice):
            state.filter = filter
            state.notice.value = notice
        case .refuse(let notice):
            state.notice.value = notice
        }
        return state
    }
}
