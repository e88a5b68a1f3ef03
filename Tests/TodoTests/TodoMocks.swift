import AddTodo
import Domain
import DomainTesting
import HeadlessUI
import RIBs

@testable import Todo

@MainActor
final class TodoDependencyMock: TodoDependency {
    let repository: InMemoryTodoRepository
    let preferences = InMemoryProfileStore()
    var todoRepository: any TodoRepository { repository }
    var screenPreferences: any ScreenPreferencesRepository { preferences }

    /// A list of `titles`, or, with `loadFailure`, a list whose read throws it.
    init(titles: [String] = [], loadFailure: RepositoryError? = nil) {
        repository = InMemoryTodoRepository(titles.map { Todo(title: $0) }, loadFailure: loadFailure)
    }
}

@MainActor
final class TodoPresenterMock: TodoPresentable, TodoViewControllable {
    weak var listener: (any TodoPresentableListener)?
    var presented: [TodoReactor.State] = []
    /// Every notice posted, in order.
    var posted: [Notice?] = []
    var isPresentedInWindow = false
    var navigationController: NavigationController? { nil }

    /// The notice posted last; `nil` when none was, or the last cleared the line.
    var lastNotice: Notice? { posted.last ?? nil }

    func present(_ state: TodoReactor.State) { presented.append(state) }
    func post(_ notice: Notice?) { posted.append(notice) }
}

@MainActor
final class TodoRouterMock: ViewableRouter<any TodoInteractable, any TodoViewControllable>, TodoRouting {
    var routeToAddTodoCalls = 0
    var detachAddTodoCalls = 0

    func routeToAddTodo() { routeToAddTodoCalls += 1 }
    func detachAddTodo() { detachAddTodoCalls += 1 }
}

@MainActor
final class TodoListenerMock: TodoListener {}
