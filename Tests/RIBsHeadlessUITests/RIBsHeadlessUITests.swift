import HeadlessUI
import Layout
import RIBs
import RIBsHeadlessUI
import Testing

@MainActor
final class ScreenInteractor: Interactor {}

@MainActor
final class ScreenRouter: ViewableRouter<ScreenInteractor, ViewController> {
    convenience init(title: String) {
        let controller = ViewController()
        controller.title = title
        self.init(interactor: ScreenInteractor(), viewController: controller)
    }
}

@MainActor
final class RootRouter: LaunchRouter<ScreenInteractor, NavigationController> {
    init() {
        let list = ViewController()
        list.title = "List"
        super.init(
            interactor: ScreenInteractor(), viewController: NavigationController(rootViewController: list))
    }
}

@MainActor
@Suite("RIBs on HeadlessUI: launch into a window, detach on back")
struct RIBsHeadlessUITests {
    @Test func aLaunchRouterLaunchesIntoAHeadlessWindow() {
        let window = Window(size: Size(width: 30, height: 6))
        let root = RootRouter()
        #expect(!root.viewControllable.isPresentedInWindow)
        root.launch(from: window)
        #expect(window.isKeyWindow)
        #expect(window.rootViewController === root.viewController)
        #expect(root.viewControllable.isPresentedInWindow)
        #expect(root.interactable.isActive)
        #expect(window.render().lines[0].contains("List"))
    }

    @Test func theBackItemDetachesTheChildRIBItsParentPushed() {
        let window = Window(size: Size(width: 30, height: 6))
        let root = RootRouter()
        root.launch(from: window)
        let child = ScreenRouter(title: "Add")
        var heardBack = false
        root.attachChild(child, pushingOn: root.viewController) { heardBack = true }
        #expect(root.children.count == 1)
        #expect(child.interactable.isActive)
        #expect(child.viewControllable.isPresentedInWindow)
        #expect(root.viewController.goBack())
        #expect(root.children.isEmpty)
        #expect(!child.interactable.isActive)
        #expect(heardBack)
        #expect(!child.viewControllable.isPresentedInWindow)
    }

    @Test func leavingInCodePopsAndDetachesWithoutTheBackHandler() {
        let root = RootRouter()
        let child = ScreenRouter(title: "Add")
        var heardBack = false
        root.attachChild(child, pushingOn: root.viewController) { heardBack = true }
        root.detachChild(child, poppingFrom: root.viewController)
        #expect(root.children.isEmpty)
        #expect(root.viewController.viewControllers.count == 1)
        #expect(!heardBack)
    }

    @Test func aWindowRefusesAViewControllerFromAnotherUIFramework() {
        final class Foreign: ViewControllable {
            var isPresentedInWindow: Bool { false }
        }
        let window = Window(size: Size(width: 10, height: 2))
        let reports = HeadlessUIDiagnostics.capturingMisuse { window.setRootViewController(Foreign()) }
        #expect(reports == [.foreignViewController("Foreign")])
        #expect(window.rootViewController == nil)
    }
}
