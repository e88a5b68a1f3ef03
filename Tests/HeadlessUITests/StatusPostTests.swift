import HeadlessUI
import Layout
import Testing

/// The status line has one owner, the window: controllers post to it, and it shows the newest
/// post of a controller on screen.
@MainActor
@Suite("Window.post(_:from:): the newest post of a controller on screen is the status line")
struct StatusPostTests {
    /// A window showing two tabs, the first selected, the window's root being the tab bar.
    private func twoTabs() -> (Window, TabBarController, first: ViewController, second: ViewController) {
        let window = Window(size: Size(width: 40, height: 10))
        let tabs = TabBarController()
        let first = ViewController()
        first.tabBarItem.title = "One"
        let second = ViewController()
        second.tabBarItem.title = "Two"
        tabs.viewControllers = [first, second]
        window.rootViewController = tabs
        window.makeKeyAndVisible()
        return (window, tabs, first, second)
    }

    @Test("the newest post wins; the same message posted again is the newest again; nil clears the line")
    func newestWins() {
        let (window, tabs, first, _) = twoTabs()
        #expect(window.status == nil, "nothing posted yet")
        first.post(.success("Saved."))
        #expect(window.status == .success("Saved."))
        tabs.post(StatusMessage("A note."))
        #expect(window.status == StatusMessage("A note."))
        first.post(.success("Saved."))
        #expect(window.status == .success("Saved."), "the same sentence twice shows twice")
        first.post(nil)
        #expect(window.status == nil)
    }

    @Test("a post made off screen waits for its controller to come on, then is the newest")
    func offScreenPostWaits() {
        let (window, tabs, _, second) = twoTabs()
        tabs.post(StatusMessage("Press ? for the keys."))
        second.post(.failure("Profile could not be read."))
        #expect(window.status == StatusMessage("Press ? for the keys."), "the second tab is not shown")
        tabs.post(nil)
        tabs.selectedIndex = 1
        #expect(window.status == .failure("Profile could not be read."), "shown as the tab comes on")
    }

    @Test("a controller's post shows only while it is on screen")
    func offScreenPostsDoNotShow() {
        let (window, tabs, first, second) = twoTabs()
        tabs.post(StatusMessage("Welcome."))
        first.post(.success("Added."))
        tabs.selectedIndex = 1
        #expect(window.status == StatusMessage("Welcome."), "the first tab's post went with it")
        second.post(.success("Kept."))
        tabs.selectedIndex = 0
        #expect(window.status == .success("Added."), "the first tab's post is its newest on screen")
    }
}
