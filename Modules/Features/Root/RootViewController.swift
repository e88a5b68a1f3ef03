import Domain
import HeadlessUI
import RIBs
import RIBsHeadlessUI
import TerminalCore

/// What the root screen reports to its interactor.
@MainActor
protocol RootPresentableListener: AnyObject {
    /// The user chose the tab titled `title`.
    func didSelectTab(titled title: String)
}

/// A tab bar of Todo and Profile, each in a navigation controller so that both have a title
/// bar, with the app's name in the flavor's accent at its right. Tab and Shift-Tab go to the
/// next and previous tab; Alt-1, Alt-2 and `tab todo|profile` are the tab bar's own.
@MainActor
final class RootViewController: TabBarController, RootPresentable, RootViewControllable,
    TabBarControllerDelegate
{
    let appName: String
    weak var listener: (any RootPresentableListener)?

    init(appName: String, accent: Color) {
        self.appName = appName
        super.init()
        title = appName
        tabBar.trailingText = appName
        tabBar.trailingStyle = TextStyle(foreground: accent, isBold: true)
        delegate = self
    }

    func showTabs(todo: ViewController, profile: ViewController) {
        let todoNavigation = NavigationController(rootViewController: todo)
        todoNavigation.tabBarItem.title = "Todo"
        let profileNavigation = NavigationController(rootViewController: profile)
        profileNavigation.tabBarItem.title = "Profile"
        viewControllers = [todoNavigation, profileNavigation]
        if let wantedTab { selectTab(titled: wantedTab) }
    }

    // MARK: RootPresentable

    /// The tab to show once the tabs are there.
    private var wantedTab: String?

    func selectTab(titled title: String) {
        wantedTab = title
        guard let index = viewControllers.firstIndex(where: { $0.tabBarItem.title == title }) else { return }
        selectedIndex = index
    }

    func post(_ notice: Notice?) {
        // Notice.Kind and StatusMessage.Kind share their names (TodoTests checks every one).
        post(
            notice.map {
                StatusMessage($0.text, kind: StatusMessage.Kind(rawValue: $0.kind.rawValue) ?? .info)
            })
    }

    // MARK: Tabs

    func tabBarController(_ tabBarController: TabBarController, didSelect viewController: ViewController) {
        listener?.didSelectTab(titled: viewController.tabBarItem.title ?? "")
    }

    override var keyCommands: [KeyCommand] {
        super.keyCommands + [
            KeyCommand("Next tab", keys: [KeyPress(.tab)], help: "Show the next tab") { [weak self] _ in
                self?.moveTab(by: 1)
                return .handled
            },
            KeyCommand(
                "Previous tab", keys: [KeyPress(.tab, modifiers: .shift)], help: "Show the previous tab",
                showsInHelpBar: false
            ) { [weak self] _ in
                self?.moveTab(by: -1)
                return .handled
            },
        ]
    }

    private func moveTab(by step: Int) {
        let count = viewControllers.count
        guard count > 1 else { return }
        selectTab(at: (selectedIndex + step + count) % count)
    }
}
