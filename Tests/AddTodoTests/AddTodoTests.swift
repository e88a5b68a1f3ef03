import HeadlessUI
import Layout
import RIBs
import Testing

@testable import AddTodo

@MainActor
final class AddTodoDependencyMock: AddTodoDependency {}

@MainActor
final class AddTodoListenerMock: AddTodoListener {
    var submitted: [String] = []
    var cancelled = 0

    func addTodoDidSubmit(title: String) { submitted.append(title) }
    func addTodoDidCancel() { cancelled += 1 }
}

@MainActor
final class AddTodoPresenterMock: AddTodoPresentable {
    weak var listener: (any AddTodoPresentableListener)?
    var problems: [String?] = []

    func showProblem(_ problem: String?) { problems.append(problem) }
}

@MainActor
@Suite("AddTodo: a form that checks the title and hands it to its listener")
struct AddTodoTests {
    let listener = AddTodoListenerMock()

    func makeInteractor() -> (AddTodoInteractor, AddTodoPresenterMock) {
        let presenter = AddTodoPresenterMock()
        let interactor = AddTodoInteractor(presenter: presenter)
        interactor.listener = listener
        return (interactor, presenter)
    }

    @Test("a valid title goes to the listener, on one line and trimmed")
    func submit() {
        let (interactor, presenter) = makeInteractor()
        #expect(presenter.listener === interactor)
        interactor.didTapSave(title: "  buy\njam ")
        #expect(listener.submitted == ["buy jam"])
        #expect(presenter.problems.isEmpty)
    }

    @Test("an empty or overlong title stays on the screen with the reason; the listener hears nothing")
    func refused() {
        let (interactor, presenter) = makeInteractor()
        interactor.didTapSave(title: " ")
        interactor.didTapSave(title: String(repeating: "x", count: 201))
        #expect(presenter.problems == ["A todo needs a title.", "A title can be at most 200 characters."])
        #expect(listener.submitted.isEmpty)
    }

    @Test("the builder wires the listener; the screen's save and cancel commands reach it")
    func builderAndCommands() throws {
        let router = AddTodoBuilder(dependency: AddTodoDependencyMock()).build(withListener: listener)
        let interactor = try #require(router.interactable as? AddTodoInteractor)
        #expect(interactor.listener === listener)
        #expect(interactor.router === router)
        let screen = try #require(router.viewControllable as? AddTodoViewController)
        // Typed as at the `:` prompt: along the responder chain of a window showing the form.
        let window = Window(size: Size(width: 60, height: 12))
        window.rootViewController = screen
        window.makeKeyAndVisible()
        #expect(window.perform(try #require(TerminalCommand("save oat milk"))) == .handled)
        #expect(listener.submitted == ["oat milk"], "the typed title goes to the listener as it is")
        #expect(screen.titleField.text.isEmpty, "not through the field, which keeps what is typed in it")
        #expect(window.perform(try #require(TerminalCommand("cancel"))) == .handled)
        #expect(listener.cancelled == 1)
        #expect(window.perform(try #require(TerminalCommand("done 1"))) == .notHandled)
    }
}
