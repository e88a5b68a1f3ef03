import Domain
import HeadlessUI
import RIBs
import Testing

@testable import AddTodo

@MainActor
final class AddTodoDependencyMock: AddTodoDependency {
    let repository = InMemoryTodoRepository()
    lazy var todoBook = TodoBook(repository: repository)
}

@MainActor
final class AddTodoListenerMock: AddTodoListener {
    var saved: [(title: String, warning: String?)] = []
    var cancelled = 0

    func addTodoDidSave(_ todo: Todo, warning: String?) { saved.append((todo.title, warning)) }
    func addTodoDidCancel() { cancelled += 1 }
}

@MainActor
final class AddTodoPresenterMock: AddTodoPresentable {
    weak var listener: (any AddTodoPresentableListener)?
    var problems: [String?] = []

    func showProblem(_ problem: String?) { problems.append(problem) }
}

@MainActor
@Suite("AddTodo: saves through the parent's book, reports refusals, cancels")
struct AddTodoTests {
    let dependency = AddTodoDependencyMock()
    let listener = AddTodoListenerMock()

    @Test("a valid title is added to the book and reported to the listener")
    func save() {
        let presenter = AddTodoPresenterMock()
        let interactor = AddTodoInteractor(presenter: presenter, book: dependency.todoBook)
        interactor.listener = listener
        #expect(presenter.listener === interactor)
        interactor.didTapSave(title: "  buy jam ")
        #expect(listener.saved.map(\.title) == ["buy jam"])
        #expect(listener.saved.first?.warning == nil)
        #expect(dependency.repository.savedTodos.map(\.title) == ["buy jam"])
    }

    @Test("an empty title stays on the screen with the reason; nothing is added")
    func refused() {
        let presenter = AddTodoPresenterMock()
        let interactor = AddTodoInteractor(presenter: presenter, book: dependency.todoBook)
        interactor.listener = listener
        interactor.didTapSave(title: " ")
        #expect(presenter.problems == ["A todo needs a title."])
        #expect(listener.saved.isEmpty)
        #expect(dependency.todoBook.list.todos.isEmpty)
    }

    @Test("a save that cannot be written still adds the todo, with a warning")
    func notSaved() {
        dependency.repository.failSaves(with: .unwritable(reason: "read-only"))
        let interactor = AddTodoInteractor(presenter: AddTodoPresenterMock(), book: dependency.todoBook)
        interactor.listener = listener
        interactor.didTapSave(title: "jam")
        #expect(listener.saved.first?.title == "jam")
        #expect(listener.saved.first?.warning == "Not saved: could not write (read-only)")
    }

    @Test("the builder takes the book from the parent's dependency; the screen's commands reach the listener")
    func builderAndCommands() throws {
        let router = AddTodoBuilder(dependency: dependency).build(withListener: listener)
        let interactor = try #require(router.interactable as? AddTodoInteractor)
        #expect(interactor.listener === listener)
        #expect(interactor.router === router)
        let screen = try #require(router.viewControllable as? AddTodoViewController)
        screen.loadViewIfNeeded()
        #expect(screen.handle(try #require(TerminalCommand("save oat milk"))) == .handled)
        #expect(screen.titleField.text == "oat milk")
        #expect(dependency.todoBook.list.todos.map(\.title) == ["oat milk"])
        #expect(screen.handle(try #require(TerminalCommand("cancel"))) == .handled)
        #expect(listener.cancelled == 1)
        #expect(screen.handle(try #require(TerminalCommand("done 1"))) == .notHandled)
    }
}
