import RIBs
import Testing

@MainActor
@Suite("LeakDetector")
struct LeakDetectorTests {
    final class Object {}

    @Test("status goes in progress while checks are pending and completes when they are done")
    func status() async throws {
        let detector = LeakDetector(reportsLeaksAsAssertions: false, environment: [:])
        var statuses = detector.status.makeAsyncIterator()
        #expect(try await nextValue(&statuses) == .didComplete)
        var object: Object? = Object()
        if let object { detector.expectDeallocate(object: object, inTime: 0.05) }
        #expect(try await nextValue(&statuses) == .inProgress)
        object = nil
        #expect(try await nextValue(&statuses) == .didComplete)
        #expect(detector.leaks.isEmpty)
        _ = object
    }

    @Test("a check whose object is gone completes at the next tick, long before its deadline")
    func completesEarly() async {
        let detector = LeakDetector(reportsLeaksAsAssertions: false, environment: [:])
        var object: Object? = Object()
        if let object {
            detector.expectDeallocate(object: object, inTime: 60)
            detector.expectViewControllerDisappear(viewController: ViewControllerStub(), inTime: 60)
        }
        object = nil
        await detector.waitUntilComplete()
        // On the detector's own clock, not the wall's: a full `swift test` on a loaded machine
        // starved the main actor past a 30 s wall-clock bound. A tick moves this clock 33 ms at
        // most, so under a second is "at the first ticks", and the deadline is 60 s away.
        #expect(detector.elapsedTime < 1)
        #expect(detector.leaks.isEmpty)
        _ = object
    }

    @MainActor
    final class ViewControllerStub: ViewControllable {
        var isPresentedInWindow: Bool { true }
    }

    @Test("reports an object that outlives its deadline, naming it")
    func reportsLeak() async {
        let detector = LeakDetector(reportsLeaksAsAssertions: false, environment: [:])
        let kept = Object()
        detector.expectDeallocate(object: kept, inTime: 0.05)
        await detector.waitUntilComplete()
        #expect(detector.leaks(of: kept).count == 1)
        #expect(detector.leaks.first?.description.contains("Object") == true)
        #expect(detector.leaks.first?.description.contains("has leaked") == true)
    }

    @Test("cancel calls a check off and lowers the pending count once, however often it is called")
    func cancelOnce() async {
        let detector = LeakDetector(reportsLeaksAsAssertions: false, environment: [:])
        let kept = Object()
        let other = Object()
        let handle = detector.expectDeallocate(object: kept, inTime: 0.05)
        detector.expectDeallocate(object: other, inTime: 0.1)
        #expect(detector.pendingCount == 2)
        handle.cancel()
        handle.cancel()
        #expect(detector.pendingCount == 1, "RIBs-iOS decrements twice here")
        await detector.waitUntilComplete()
        #expect(detector.pendingCount == 0)
        #expect(detector.leaks(of: kept).isEmpty)
        #expect(detector.leaks(of: other).count == 1)
    }

    @Test(
        "expectViewControllerDisappear(viewController:), RIBs-iOS's name: a view controller still on screen at the deadline is a leak"
    )
    func viewDisappearance() async {
        let detector = LeakDetector(reportsLeaksAsAssertions: false, environment: [:])
        let visible = ViewControllerMock()
        visible.isPresentedInWindow = true
        let hidden = ViewControllerMock()
        detector.expectViewControllerDisappear(viewController: visible, inTime: 0.05)
        detector.expectViewControllerDisappear(viewController: hidden, inTime: 0.05)
        await detector.waitUntilComplete()
        #expect(detector.leaks(of: visible).map(\.kind) == [.viewDisappearance])
        #expect(detector.leaks(of: hidden).isEmpty)
    }

    @Test("catches a deliberately leaked interactor through its router's deinit", .recordingLeakDetector)
    func deliberatelyLeakedInteractor() async {
        // The RIB types report to the installed (shared, recording) instance; swapping it here
        // would steal other suites' checks, so this test finds its leak by identity instead.
        let detector = LeakDetector.instance

        @MainActor final class SelfRetainingInteractor: Interactor {
            var onEvent: (() -> Void)?
            func leak() { onEvent = { _ = self } }  // the retain cycle a forgotten `[weak self]` makes
        }
        var router: Router<SelfRetainingInteractor>? = Router(interactor: SelfRetainingInteractor())
        weak let interactor = router?.interactor
        interactor?.leak()
        router = nil
        _ = router
        guard let leaked = interactor else {
            Issue.record("the interactor was meant to leak, but it was deallocated")
            return
        }
        #expect(await waitForLeaks(of: leaked, in: detector).map(\.kind) == [.deallocation])
        leaked.onEvent = nil
    }

    @Test("DISABLE_LEAK_DETECTION still records leaks, without asserting")
    func disabled() async {
        let detector = LeakDetector(environment: ["DISABLE_LEAK_DETECTION": "YES"])
        let kept = Object()
        detector.expectDeallocate(object: kept, inTime: 0.02)
        await detector.waitUntilComplete()
        #expect(detector.leaks(of: kept).count == 1)
    }
}
