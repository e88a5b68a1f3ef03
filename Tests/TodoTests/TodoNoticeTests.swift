import Domain
import HeadlessUI
import Testing

@testable import Todo

/// The list's notices reach the window's status line through one post each: the reactor keeps a
/// UI-free ``Domain/Notice``, the screen posts it, and the window shows the newest post.
@MainActor
@Suite("Todo's notices in the status line")
struct TodoNoticeTests {
    @Test("every kind of notice reads as the status message of the same name")
    func kindsShareTheirNames() {
        for kind in Notice.Kind.allCases {
            #expect(StatusMessage.Kind(rawValue: kind.rawValue) != nil, "\(kind)")
        }
    }

    @Test(
        "the same sentence twice shows twice, after another post; a change that says nothing clears the line")
    func sameSentenceTwice() async throws {
        let todo = try await TodoInAWindow()
        defer { todo.router.interactable.deactivate() }
        await todo.perform("undo")
        #expect(todo.window.status == .failure("Nothing to undo."))
        todo.window.post(StatusMessage("From elsewhere."), from: todo.navigation)
        #expect(todo.window.status == StatusMessage("From elsewhere."))
        await todo.perform("undo")
        #expect(todo.window.status == .failure("Nothing to undo."), "posted again, so the newest")
        await todo.perform("done 1")
        #expect(todo.window.status == nil, "a toggle says nothing: the list's last notice goes")
    }

    @Test("a second activation posts nothing again: only a notice a mutation sets is posted")
    func reactivationPostsNothing() async throws {
        let dependency = TodoDependencyMock(titles: ["milk"])
        let presenter = TodoPresenterMock()
        let interactor = TodoInteractor(
            presenter: presenter, reactor: TodoReactor(repository: dependency.repository))
        interactor.activate()
        await interactor.reactor.send(.undo).reduced()
        #expect(presenter.posted == [.failure("Nothing to undo.")])
        interactor.deactivate()
        interactor.activate()
        await interactor.reactor.send(.load).reduced()
        #expect(presenter.posted == [.failure("Nothing to undo.")], "the kept notice is not posted again")
        interactor.deactivate()
    }
}
