import HeadlessUI
import Layout
import Testing

/// Records every lifecycle callback of the controllers that share it.
@MainActor
final class CallLog {
    var entries: [String] = []
    func take() -> [String] {
        defer { entries = [] }
        return entries
    }
}

@MainActor
final class LoggingViewController: ViewController {
    let log: CallLog
    let name: String
    var movingFromParentInWillDisappear: Bool?

    init(_ name: String, log: CallLog) {
        self.name = name
        self.log = log
        super.init()
        title = name
    }

    override func viewDidLoad() { log.entries.append("\(name).viewDidLoad") }
    override func viewWillAppear() { log.entries.append("\(name).viewWillAppear") }
    override func viewDidAppear() { log.entries.append("\(name).viewDidAppear") }
    override func viewWillDisappear() {
        movingFromParentInWillDisappear = isMovingFromParent
        log.entries.append("\(name).viewWillDisappear")
    }
    override func viewDidDisappear() { log.entries.append("\(name).viewDidDisappear") }
}

@MainActor
@Suite("View controller lifecycle, in UIKit's order")
struct ViewControllerLifecycleTests {
    let log = CallLog()
    let window = Window(size: Size(width: 40, height: 12))

    private func controller(_ name: String) -> LoggingViewController { LoggingViewController(name, log: log) }

    @Test func theViewIsLoadedOnceOnFirstUse() {
        let a = controller("A")
        #expect(!a.isViewLoaded)
        _ = a.view
        _ = a.view
        #expect(a.isViewLoaded)
        #expect(log.take() == ["A.viewDidLoad"])
    }

    @Test func aWindowShowsItsRootWhenMadeVisible() {
        let a = controller("A")
        window.rootViewController = a
        #expect(log.take() == ["A.viewDidLoad"])
        #expect(window.render().lines.allSatisfy { $0.isEmpty })  // hidden until made visible
        window.makeKeyAndVisible()
        #expect(log.take() == ["A.viewWillAppear", "A.viewDidAppear"])
        #expect(a.appearanceState == .appeared)
        #expect(a.window === window)
        window.makeKeyAndVisible()
        #expect(log.take().isEmpty)
    }

    @Test func replacingTheRootOfAVisibleWindowSwapsAppearances() {
        window.rootViewController = controller("A")
        window.makeKeyAndVisible()
        _ = log.take()
        window.rootViewController = controller("B")
        #expect(
            log.take() == [
                "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "A.viewDidDisappear",
                "B.viewDidAppear",
            ])
    }

    @Test func pushAndPopRunTheCallbacksInUIKitsOrder() {
        let root = controller("Root")
        let navigation = NavigationController(rootViewController: root)
        window.rootViewController = navigation
        window.makeKeyAndVisible()
        #expect(log.take() == ["Root.viewDidLoad", "Root.viewWillAppear", "Root.viewDidAppear"])
        let detail = controller("Detail")
        navigation.pushViewController(detail)
        #expect(
            log.take() == [
                "Detail.viewDidLoad", "Root.viewWillDisappear", "Detail.viewWillAppear",
                "Root.viewDidDisappear",
                "Detail.viewDidAppear",
            ])
        #expect(detail.navigationController === navigation)
        #expect(navigation.popViewController() === detail)
        #expect(
            log.take() == [
                "Detail.viewWillDisappear", "Root.viewWillAppear", "Detail.viewDidDisappear",
                "Root.viewDidAppear",
            ])
        #expect(detail.parent == nil)
        #expect(detail.movingFromParentInWillDisappear == true)
        #expect(navigation.popViewController() == nil)  // the root stays
    }

    @Test func theBackItemPopsAndTellsWhoeverPushed() {
        let navigation = NavigationController(rootViewController: controller("List"))
        window.rootViewController = navigation
        window.makeKeyAndVisible()
        var wentBack: [String] = []
        navigation.pushViewController(controller("Add")) { wentBack.append("Add") }
        #expect(window.render().lines[0].hasPrefix(" ‹ List"))
        #expect(navigation.goBack())
        #expect(wentBack == ["Add"])
        #expect(navigation.viewControllers.map(\.title) == ["List"])
        #expect(!navigation.goBack())  // nothing to go back to
    }

    @Test func popsInCodeDoNotCallTheBackHandler() {
        let navigation = NavigationController(rootViewController: controller("List"))
        var wentBack = 0
        navigation.pushViewController(controller("A")) { wentBack += 1 }
        navigation.pushViewController(controller("B")) { wentBack += 1 }
        #expect(navigation.popToRootViewController().map(\.title) == ["A", "B"])
        #expect(wentBack == 0)
    }

    @Test func aHiddenBackButtonCannotBeUsed() {
        let navigation = NavigationController(rootViewController: controller("List"))
        let edit = controller("Edit")
        edit.navigationItem.hidesBackButton = true
        navigation.pushViewController(edit)
        #expect(!navigation.goBack())
        #expect(navigation.topViewController === edit)
    }

    @Test func popToRootOnScreenShowsOnlyTheNewTopAppearing() {
        let navigation = NavigationController(rootViewController: controller("Root"))
        window.rootViewController = navigation
        window.makeKeyAndVisible()
        navigation.pushViewController(controller("A"))
        navigation.pushViewController(controller("B"))
        _ = log.take()
        navigation.popToRootViewController()
        #expect(
            log.take() == [
                "B.viewWillDisappear", "Root.viewWillAppear", "B.viewDidDisappear", "Root.viewDidAppear",
            ])
    }

    @Test func switchingTabsSwapsAppearances() {
        let tabs = TabBarController()
        tabs.viewControllers = [controller("Todo"), controller("Profile")]
        window.rootViewController = tabs
        window.makeKeyAndVisible()
        #expect(log.take() == ["Todo.viewDidLoad", "Todo.viewWillAppear", "Todo.viewDidAppear"])
        tabs.selectedIndex = 1
        #expect(
            log.take() == [
                "Profile.viewDidLoad", "Todo.viewWillDisappear", "Profile.viewWillAppear",
                "Todo.viewDidDisappear",
                "Profile.viewDidAppear",
            ])
        #expect(window.render().lines[11] == "  1 Todo  [2 Profile]")
        tabs.selectedIndex = 1
        #expect(log.take().isEmpty)
    }

    @Test func tappingATabTellsTheDelegateAndABadTabIsReported() {
        final class Delegate: TabBarControllerDelegate {
            var selected: [String?] = []
            func tabBarController(
                _ tabBarController: TabBarController, didSelect viewController: ViewController
            ) {
                selected.append(viewController.title)
            }
        }
        let tabs = TabBarController()
        let delegate = Delegate()
        tabs.delegate = delegate
        tabs.viewControllers = [controller("Todo"), controller("Profile")]
        var results: [Bool] = []
        let reports = HeadlessUIDiagnostics.capturingMisuse {
            results = [tabs.selectTab(at: 1), tabs.selectTab(at: 7)]
        }
        #expect(results == [true, false])
        #expect(delegate.selected == ["Profile"])
        #expect(reports == [.tabIndexOutOfRange(index: 7, count: 2)])
        #expect(tabs.selectedIndex == 1)
    }

    @Test func presentingCoversTheScreenAndDismissingUncoversIt() {
        let root = controller("Root")
        window.rootViewController = root
        window.makeKeyAndVisible()
        _ = log.take()
        let modal = controller("Modal")
        var completed = false
        root.present(modal) { completed = true }
        #expect(completed)
        #expect(
            log.take() == [
                "Modal.viewDidLoad", "Root.viewWillDisappear", "Modal.viewWillAppear",
                "Root.viewDidDisappear",
                "Modal.viewDidAppear",
            ])
        #expect(root.presentedViewController === modal)
        #expect(window.topmostController === modal)
        #expect(root.view.isHidden)
        modal.dismiss()
        #expect(
            log.take() == [
                "Modal.viewWillDisappear", "Root.viewWillAppear", "Modal.viewDidDisappear",
                "Root.viewDidAppear",
            ])
        #expect(root.presentedViewController == nil)
        #expect(!root.view.isHidden)
    }

    @Test func presentingMisuseIsReportedAndChangesNothing() {
        let loose = controller("Loose")
        let root = controller("Root")
        window.rootViewController = root
        let reports = HeadlessUIDiagnostics.capturingMisuse {
            loose.present(controller("X"))
            root.present(controller("First"))
            root.present(controller("Second"))
            NavigationController().pushViewController(NavigationController())
        }
        #expect(
            reports == [
                .presentingOutsideWindow(presenter: "LoggingViewController(Loose)"),
                .alreadyPresenting(
                    presenter: "LoggingViewController(Root)", presented: "LoggingViewController(First)"),
                .pushingNavigationController("NavigationController"),
            ])
        #expect(root.presentedViewController?.title == "First")
    }

    @Test func aChildAddedToAVisibleParentAppearsAndDisappearsWhenRemoved() {
        let parent = controller("Parent")
        window.rootViewController = parent
        window.makeKeyAndVisible()
        _ = log.take()
        let child = controller("Child")
        parent.addChild(child)
        parent.view.addSubview(child.view)
        child.didMove(toParent: parent)
        #expect(log.take() == ["Child.viewDidLoad", "Child.viewWillAppear", "Child.viewDidAppear"])
        child.willMove(toParent: nil)
        child.view.removeFromSuperview()
        child.removeFromParent()
        #expect(log.take() == ["Child.viewWillDisappear", "Child.viewDidDisappear"])
        #expect(child.movingFromParentInWillDisappear == true)
        #expect(parent.children.isEmpty)
    }

    @Test func childrenOnScreenFollowTheirParentsAppearanceParentFirst() {
        let parent = controller("Parent")
        let child = controller("Child")
        parent.addChild(child)
        parent.view.addSubview(child.view)
        child.didMove(toParent: parent)
        window.rootViewController = parent
        _ = log.take()
        window.makeKeyAndVisible()
        #expect(
            log.take() == [
                "Parent.viewWillAppear", "Child.viewWillAppear", "Parent.viewDidAppear",
                "Child.viewDidAppear",
            ])
        window.hide()
        #expect(
            log.take() == [
                "Parent.viewWillDisappear", "Child.viewWillDisappear", "Parent.viewDidDisappear",
                "Child.viewDidDisappear",
            ])
    }
}
