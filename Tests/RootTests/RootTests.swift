import Domain
import DomainTesting
import Foundation
import HeadlessUI
import Layout
import RIBs
import RIBsHeadlessUI
import Reactor
import TerminalCore
import Testing

@testable import Root

@MainActor
final class RootDependencyMock: RootDependency {
    let appName = "TodoApp-Test"
    let accentColor = Color.cyan
    let todos = InMemoryTodoRepository([Todo(title: "milk")])
    let store = InMemoryProfileStore()
    lazy var favoritePhotos = FavoritePhotos(repository: store)
    var todoRepository: any TodoRepository { todos }
    var profileRepository: any ProfileRepository { store }
    var screenPreferences: any ScreenPreferencesRepository { store }
    var petPhotoRepository: any PetPhotoRepository {
        InMemoryPetPhotoRepository(pet: .cat, answers: [.failure(.offline("no route"))])
    }
}

@MainActor
@Suite("Root: launches a tab bar of Todo and Profile")
struct RootTests {
    @Test("launch attaches Todo and Profile as tabs, and tab switches between them")
    func launch() async throws {
        let dependency = RootDependencyMock()
        let router = RootBuilder(dependency: dependency).build()
        let window = Window(size: Size(width: 70, height: 14))
        await SentActions.during { router.launch(from: window) }.reduced()
        #expect(
            RouterTree(router).text == """
                RootRouter [active, view]
                ├─ TodoRouter [active, view]
                └─ ProfileRouter [active, view]
                """)
        let tabs = try #require(window.rootViewController as? TabBarController)
        #expect(tabs.viewControllers.count == 2)
        #expect(tabs.tabBar.itemTitles == ["1 Todo •1", "2 Profile"])
        let todoScreen = window.render().lines.joined(separator: "\n")
        #expect(todoScreen.contains("1. [ ] milk"))
        #expect(todoScreen.contains("TodoApp-Test"))
        // The Profile screen asks for its photo as it comes on; the command's work is awaited.
        let tabProfile = try #require(TerminalCommand("tab profile"))
        var result = CommandResult.notHandled
        await SentActions.during { result = window.perform(tabProfile) }.reduced()
        #expect(result == .handled)
        #expect(window.render().lines.contains { $0.contains("No network: no route") })
        #expect(window.perform(try #require(TerminalCommand("done 1"))) == .notHandled)
        router.interactable.deactivate()
    }

    @Test("the tab chosen is kept and shown at the next launch; Tab and Shift-Tab go round the tabs")
    func tabIsKept() async throws {
        let dependency = RootDependencyMock()
        do {
            // Scoped, so that the first launch's objects are gone before the leak detector looks.
            let router = RootBuilder(dependency: dependency).build()
            let window = Window(size: Size(width: 70, height: 14))
            await SentActions.during { router.launch(from: window) }.reduced()
            let tabs = try #require(window.rootViewController as? TabBarController)
            await SentActions.during { window.send(.key(KeyPress(.tab))) }.reduced()
            #expect(tabs.selectedIndex == 1)
            #expect(try await dependency.store.loadPreferences().tab == "Profile")
            await SentActions.during { window.send(.key(KeyPress(.tab, modifiers: .shift))) }.reduced()
            #expect(tabs.selectedIndex == 0)
            await SentActions.during { window.send(.key(KeyPress(.tab))) }.reduced()
            router.interactable.deactivate()
        }

        let relaunched = RootBuilder(dependency: dependency).build()
        let secondWindow = Window(size: Size(width: 70, height: 14))
        await SentActions.during { relaunched.launch(from: secondWindow) }.reduced()
        let secondTabs = try #require(secondWindow.rootViewController as? TabBarController)
        #expect(secondTabs.selectedIndex == 1)
        #expect(
            secondWindow.render().lines.first?.contains("Profile") == true, "the Profile tab has a title bar")
        relaunched.interactable.deactivate()
    }
}
