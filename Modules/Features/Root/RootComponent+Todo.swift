import Domain
import Todo

// The root component gives Todo the app's todo store (Uber's Component Extension).
extension RootComponent: TodoDependency {
    /// The app's, passed down: Todo's scope opens the book over it, and owns it.
    @MainActor public var todoRepository: any TodoRepository { dependency.todoRepository }
    /// The app's, passed down: Todo keeps its filter there, Root the tab.
    @MainActor public var screenPreferences: any ScreenPreferencesRepository { dependency.screenPreferences }
}
