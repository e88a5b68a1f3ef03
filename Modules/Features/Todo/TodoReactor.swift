import Domain
import Foundation
import Reactor

/// The list screen's state machine: every action changes the shared ``TodoBook`` (which saves
/// at once) and publishes the list as it is then. Each action ends with a `settle` mutation, so
/// whoever sent it can tell when its result is on screen.
@MainActor
final class TodoReactor: Reactor {
    enum Action: Sendable {
        case toggle(UUID)
        case rename(UUID, String)
        case delete(UUID)
        case clearCompleted
        case setFilter(TodoFilter)
        /// The book changed elsewhere (AddTodo); `status` says how.
        case reload(status: String?)
    }

    enum Mutation: Sendable {
        case setList(TodoList)
        case setFilter(TodoFilter)
        case setStatus(String?)
        case settle
    }

    struct State: Sendable {
        var list: TodoList
        var filter = TodoFilter.all
        /// The last change's outcome, for the status line.
        var status: String?
        /// How many actions have gone all the way through.
        var settledActions = 0

        /// The todos the screen shows.
        var visible: [Todo] { list.filtered(filter) }
    }

    let initialState: State
    private let book: TodoBook

    init(book: TodoBook) {
        self.book = book
        initialState = State(list: book.list, status: book.loadError.map { "Todos: \($0)" })
    }

    func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error> {
        var mutations: [Mutation]
        do {
            switch action {
            case .toggle(let id):
                try book.toggle(id)
                mutations = [.setStatus(nil)]
            case .rename(let id, let title):
                try book.rename(id, to: title)
                mutations = [.setStatus(nil)]
            case .delete(let id):
                try book.delete(id)
                mutations = [.setStatus(nil)]
            case .clearCompleted:
                let removed = try book.clearCompleted()
                mutations = [.setStatus(removed == 0 ? "Nothing to clear." : "Cleared \(removed) done.")]
            case .setFilter(let filter):
                mutations = [.setFilter(filter), .setStatus(nil)]
            case .reload(let status):
                mutations = [.setStatus(status)]
            }
        } catch {
            mutations = [.setStatus(error.description)]
        }
        return .sequence([.setList(book.list)] + mutations + [.settle])
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setList(let list): state.list = list
        case .setFilter(let filter): state.filter = filter
        case .setStatus(let status): state.status = status
        case .settle: state.settledActions += 1
        }
        return state
    }
}

extension AsyncThrowingStream where Failure == any Error, Element: Sendable {
    /// `elements` in order, then the end.
    fileprivate static func sequence(_ elements: [Element]) -> Self {
        AsyncThrowingStream { continuation in
            for element in elements { continuation.yield(element) }
            continuation.finish()
        }
    }
}
