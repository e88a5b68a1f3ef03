import Domain
import Foundation
import HeadlessUI
import Testing

@testable import Todo

/// The todos' read at launch fails because another process kept the data folder
/// (``RepositoryError/inUse(location:waited:)``): nothing is damaged, so the screen must not say
/// that anything was unreadable or set aside, nor invite a first todo as if there were none.
@MainActor
@Suite("Todo: the data folder in use by another process at launch")
struct TodoDataInUseTests {
    static let inUse = RepositoryError.inUse(
        location: "/home/me/.local/share/TodoApp-Dog", waited: .seconds(5))

    @Test("the status line says the folder is in use and nothing changed; the empty list says what to do")
    func dataFolderInUse() async throws {
        let todo = try await TodoInAWindow(
            dependency: TodoDependencyMock(titles: ["milk"], loadFailure: Self.inUse))
        defer { todo.router.interactable.deactivate() }
        let status = todo.window.status
        #expect(status == .failure("Data folder in use by another process: todos not read, nothing changed."))
        let notRead = todo.list.emptyLabel.text
        #expect(
            notRead.contains("another process kept /home/me/.local/share/TodoApp-Dog in use for 5.0 seconds"))
        #expect(notRead.contains("Nothing was changed"))
        #expect(notRead.contains("start the app again"))

        // The rows as one line of words, so that the notice reads whole however it wraps.
        let screen = todo.window.render().lines.map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        #expect(screen.contains("The todos were not read"), "\(screen)")
        #expect(screen.contains("start the app again"), "the whole notice is shown: \(screen)")
        #expect(!screen.contains("Nothing here"), "\(screen)")
        for text in [screen, status?.text ?? ""] {
            #expect(!text.contains("set aside") && !text.contains("unreadable"), "\(text)")
        }

        // A todo added now is saved, and the list still says the stored ones are not on it.
        await todo.perform("new")
        await todo.perform("save eggs")
        #expect(todo.dependency.repository.saveCount == 1)
        #expect(todo.list.summaryLabel.text == "1 active, 0 done · showing all (1) · stored todos not read")
    }

    @Test("another read failure keeps its own status, and the empty list its usual invitation")
    func otherFailuresAreUnchanged() async throws {
        let todo = try await TodoInAWindow(
            dependency: TodoDependencyMock(loadFailure: .unreadable(reason: "no permission")))
        defer { todo.router.interactable.deactivate() }
        #expect(todo.window.status == .failure("Todos: stored data could not be read (no permission)"))
        #expect(todo.list.emptyLabel.text == TodoViewController.emptyText)
    }
}
