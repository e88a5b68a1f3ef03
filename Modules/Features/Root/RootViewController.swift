import HeadlessUI
import RIBs
import RIBsHeadlessUI

/// A tab bar of Todo and Profile, with the app's name in the flavor's accent at its right. Commands: `tab todo|profile` (the tab bar's own).
@MainActor
final class RootViewController: TabBarController, RootPresentable, RootViewControllable {
    let appName: String

    init(appName: String, accent: Color) {
        self.appName = appName
        super.init()
        title = appName
        tabBar.trailingText = appName
        tabBar.trailingStyle = TextStyle(foreground: accent, isBold: true)
    }

    func showTabs(todo: ViewController, profile: ViewController) {
        let navigation = NavigationController(rootViewController: todo)
        navigation.tabBarItem.title = "Todo"
        profile.tabBarItem.title = "Profile"
        viewControllers = [navigation, profile]
    }
}
