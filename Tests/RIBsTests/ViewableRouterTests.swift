import RIBs
import Testing

@MainActor
final class TestViewableRouter: ViewableRouter<InteractorMock, ViewControllerMock> {}

@MainActor
final class TestLaunchRouter: LaunchRouter<InteractorMock, ViewControllerMock> {}

@MainActor
@Suite("ViewableRouter and LaunchRouter", .recordingLeakDetector)
struct ViewableRouterTests {
    @Test("a view still on screen after its interactor deactivated is reported as a leak")
    func viewDisappearance() async {
        let detector = LeakDetector.instance
        let onScreen = ViewControllerMock()
        onScreen.isPresentedInWindow = true
        let gone = ViewControllerMock()
        gone.isPresentedInWindow = true
        let reactivated = ViewControllerMock()
        reactivated.isPresentedInWindow = true

        let parent = TestRouter()
        let routers = [onScreen, gone, reactivated].map {
            TestViewableRouter(interactor: InteractorMock(), viewController: $0)
        }
        for router in routers { parent.attachChild(router) }
        for router in routers { parent.detachChild(router) }
        gone.isPresentedInWindow = false
        parent.attachChild(routers[2])  // re-activation calls the check off

        // All three checks share a deadline, so once one has fired, all have.
        #expect(await waitForLeaks(of: onScreen, in: detector).map(\.kind) == [.viewDisappearance])
        #expect(detector.leaks(of: gone).isEmpty)
        #expect(detector.leaks(of: reactivated).isEmpty)
        _ = routers
    }

    @Test("a deallocated viewable router expects its view controller and interactor to go")
    func deinitTriggersLeakDetection() async {
        let detector = LeakDetector.instance
        let viewController = ViewControllerMock()
        let interactor = InteractorMock()
        var router: TestViewableRouter? = TestViewableRouter(
            interactor: interactor, viewController: viewController)
        router = nil
        _ = router
        #expect(await waitForLeaks(of: viewController, in: detector).map(\.kind) == [.deallocation])
        #expect(detector.leaks(of: interactor).map(\.kind) == [.deallocation])
    }

    @Test("launch sets the window's root, makes it key, activates and loads the root RIB")
    func launch() {
        let window = WindowMock()
        let viewController = ViewControllerMock()
        let router = TestLaunchRouter(interactor: InteractorMock(), viewController: viewController)
        let child = TestRouter()
        router.launch(from: window)
        router.attachChild(child)
        #expect(window.rootViewController === viewController)
        #expect(window.isKeyWindow)
        #expect(router.interactor.isActive)
        #expect(router.isLoaded)
        router.interactor.deactivate()
        #expect(!child.interactor.isActive, "a launched root drives its subtree")
    }
}

@MainActor
@Suite("PresentableInteractor", .recordingLeakDetector)
struct PresentableInteractorTests {
    final class PresenterMock: Presentable {}

    @Test("a deallocated interactor expects its presenter to go, and flags it when it does not")
    func presenterLeak() async {
        let detector = LeakDetector.instance
        let kept = PresenterMock()
        var interactor: PresentableInteractor<PresenterMock>? = PresentableInteractor(presenter: kept)
        var released: PresentableInteractor<PresenterMock>? = PresentableInteractor(
            presenter: PresenterMock())
        weak let releasedPresenter = released?.presenter
        interactor = nil
        released = nil
        _ = (interactor, released)
        #expect(releasedPresenter == nil)
        #expect(await waitForLeaks(of: kept, in: detector).map(\.kind) == [.deallocation])
    }

    @Test("a Presenter holds its view controller")
    func presenter() {
        let viewController = ViewControllerMock()
        #expect(Presenter(viewController: viewController).viewController === viewController)
    }
}
