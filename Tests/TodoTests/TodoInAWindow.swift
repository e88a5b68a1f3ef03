import HeadlessUI
import Layout
import Reactor
import TerminalCore
import Testing

@testable import Todo

/// The Todo RIB built over a ``TodoDependencyMock`` (by default holding one todo, "milk"), its list in a
/// navigation controller in a 60×16 window, activated and loaded: what the router's and the
/// keys' tests drive. A test deactivates ``router`` when it is done.
@MainActor
struct TodoInAWindow {
    let dependency: TodoDependencyMock
    let router: TodoRouter
    let list: TodoViewController
    let navigation: NavigationController
    let window = Window(size: Size(width: 60, height: 16))

    init(dependency: TodoDependencyMock = TodoDependencyMock(titles: ["milk"])) async throws {
        self.dependency = dependency
        let built = TodoBuilder(dependency: dependency).build(withListener: TodoListenerMock())
        router = try #require(built as? TodoRouter)
        list = try #require(router.viewController as? TodoViewController)
        navigation = NavigationController(rootViewController: list)
        window.rootViewController = navigation
        window.makeKeyAndVisible()
        await SentActions.during {
            router.interactable.activate()
            router.load()
        }.reduced()
    }

    /// Performs `line` on the window, expecting it handled, and returns once its actions are on
    /// the screen.
    func perform(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        var result = CommandResult.notHandled
        await SentActions.during {
            if let command = TerminalCommand(line) { result = window.perform(command) }
        }.reduced()
        #expect(result == .handled, sourceLocation: sourceLocation)
    }

    /// Sends `key` to the window and returns once its actions are on the screen.
    func press(_ key: KeyPress) async {
        await SentActions.during { window.send(.key(key)) }.reduced()
    }
}
