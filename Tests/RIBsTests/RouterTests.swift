import RIBs
import Testing

@MainActor
@Suite("Router", .recordingLeakDetector)
struct RouterTests {
    @Test("lifecycle sends didLoad once on load, does not replay, and finishes on deinit")
    func lifecycle() async throws {
        var router: TestRouter? = TestRouter()
        var early = try #require(router).lifecycle.makeAsyncIterator()
        router?.load()
        router?.load()
        var late = try #require(router).lifecycle.makeAsyncIterator()
        #expect(router?.didLoadCount == 1)
        #expect(try await nextValue(&early) == .didLoad)
        router = nil
        #expect(await early.next() == nil)
        #expect(await late.next() == nil, "a late subscriber must not see the past didLoad")
    }

    @Test("attachChild adds the child, activates it, then loads it")
    func attachChild() {
        let parent = TestRouter()
        let childInteractor = InteractorMock()
        let child = TestRouter(childInteractor)
        var loadSawActive: Bool?
        child.lifecycle.sink { _ in MainActor.assumeIsolated { loadSawActive = childInteractor.isActive } }
        parent.attachChild(child)
        #expect(parent.children.count == 1)
        #expect(parent.children.first === child)
        #expect(childInteractor.didBecomeActiveCount == 1)
        #expect(child.didLoadCount == 1)
        #expect(loadSawActive == true, "the child is activated before it loads")
    }

    @Test("attachChild activates a child even when the parent is inactive, as RIBs-iOS does")
    func attachToInactiveParent() {
        let parent = TestRouter()
        let child = TestRouter()
        parent.attachChild(child)
        #expect(!parent.interactor.isActive)
        #expect(child.interactor.isActive)
    }

    @Test("activation cascades through the subtree, parent first, and deactivation too")
    func subtreeCascade() {
        let order = Recorder<String>()
        let names = ["root", "child", "grandchild", "sibling"]
        let routers = names.map { _ in TestRouter() }
        let (root, child, grandchild, sibling) = (routers[0], routers[1], routers[2], routers[3])
        // Subscribed before the routers load, so these sinks hear each change before the routers'.
        for (name, router) in zip(names, routers) {
            router.interactor.isActiveStream.sink { order.append(($0 ? "+" : "-") + name) }
        }
        root.load()
        root.attachChild(child)
        child.attachChild(grandchild)
        root.attachChild(sibling)
        // Children attached to an inactive parent are active; one cycle brings the tree in step.
        root.interactor.activate()
        root.interactor.deactivate()
        let before = order.values.count
        root.interactor.activate()
        root.interactor.deactivate()
        #expect(
            Array(order.values.dropFirst(before)) == [
                "+root", "+child", "+grandchild", "+sibling",
                "-root", "-child", "-grandchild", "-sibling",
            ])
        // As in RIBs-iOS, the stream sends `true` before didBecomeActive runs, so a parent's
        // subtree is already active when its own didBecomeActive runs.
        #expect(
            child.interactor.events.suffix(2) == [
                "didBecomeActive(isActive: true)", "willResignActive(isActive: true)",
            ])
    }

    @Test("detachChild deactivates the child and its subtree, and removes it")
    func detachChild() {
        let parent = TestRouter()
        parent.interactor.activate()
        parent.load()
        let child = TestRouter()
        let grandchild = TestRouter()
        parent.attachChild(child)
        child.attachChild(grandchild)
        parent.detachChild(child)
        #expect(parent.children.isEmpty)
        #expect(child.interactor.willResignActiveCount == 1)
        #expect(!child.interactor.isActive)
        #expect(!grandchild.interactor.isActive)
        #expect(child.children.count == 1, "the detached child keeps its own children")
    }

    @Test(
        "test_attachChild_activatesSubtreeOfTheChild: attaching a loaded child activates its inactive grandchild once"
    )
    func attachActivatesSubtreeOfTheChild() {
        let parent = TestRouter()
        parent.interactor.activate()
        parent.load()
        let child = TestRouter()
        let grandchildInteractor = InteractableMock()
        child.attachChild(Router(interactor: grandchildInteractor))
        let direct = grandchildInteractor.activateCallCount
        parent.attachChild(child)
        #expect(direct == 1, "attachChild itself activates")
        #expect(grandchildInteractor.activateCallCount == 2, "the child's activation reaches the grandchild")

        grandchildInteractor.isActive = true
        parent.detachChild(child)
        parent.attachChild(child)
        #expect(grandchildInteractor.activateCallCount == 2, "an active grandchild is not activated again")
    }

    @Test(
        "test_detachChild_deactivatesSubtreeOfTheChild: only a grandchild that is active hears deactivate()"
    )
    func detachDeactivatesSubtreeOfTheChild() {
        let parent = TestRouter()
        parent.interactor.activate()
        parent.load()
        let child = TestRouter()
        let grandchildInteractor = InteractableMock()
        child.attachChild(Router(interactor: grandchildInteractor))
        parent.attachChild(child)

        parent.detachChild(child)
        #expect(grandchildInteractor.deactivateCallCount == 0, "it was inactive: RIBs-iOS does not call it")

        grandchildInteractor.isActive = true
        parent.attachChild(child)
        parent.detachChild(child)
        #expect(grandchildInteractor.deactivateCallCount == 1)
    }

    @Test("re-attaching a detached subtree re-activates it without loading it again")
    func reattach() {
        let parent = TestRouter()
        let child = TestRouter()
        let grandchild = TestRouter()
        parent.attachChild(child)
        child.attachChild(grandchild)
        parent.detachChild(child)
        parent.attachChild(child)
        #expect(child.interactor.isActive)
        #expect(grandchild.interactor.isActive)
        #expect(grandchild.interactor.didBecomeActiveCount == 2)
        #expect(child.didLoadCount == 1)
    }

    @Test("attaching a child twice is a programmer error that leaves one copy")
    func doubleAttach() {
        let parent = TestRouter()
        let child = TestRouter()
        let errors = capturingProgrammerErrors {
            parent.attachChild(child)
            parent.attachChild(child)
        }
        #expect(errors == [.childAlreadyAttached(parent: "TestRouter", child: "TestRouter")])
        #expect(parent.children.count == 1)
        #expect(child.interactor.didBecomeActiveCount == 1)
    }

    @Test("detaching a router that is not a child is a programmer error that changes nothing")
    func detachNonChild() {
        let parent = TestRouter()
        let stranger = TestRouter()
        stranger.interactor.activate()
        let errors = capturingProgrammerErrors { parent.detachChild(stranger) }
        #expect(errors.count == 1)
        #expect(errors.first?.description.contains("is not a child") == true)
        #expect(stranger.interactor.isActive, "unlike RIBs-iOS, a stranger is not deactivated")
    }

    @Test("a deallocated router deactivates and detaches its children")
    func deinitDetaches() {
        var parent: TestRouter? = TestRouter()
        let child = TestRouter()
        parent?.attachChild(child)
        parent = nil
        #expect(!child.interactor.isActive)
    }

    @Test("a deallocated router expects its interactor to go too, and flags it when it does not")
    func deinitTriggersLeakDetection() async {
        let detector = LeakDetector.instance
        let leakedInteractor = InteractorMock()
        var leakingRouter: TestRouter? = TestRouter(leakedInteractor)
        var cleanRouter: TestRouter? = TestRouter()
        weak let cleanInteractor = cleanRouter?.interactor
        leakingRouter = nil
        cleanRouter = nil
        _ = (leakingRouter, cleanRouter)
        // Gone at once, so its check passes. (Its identity cannot be looked up among the shared
        // detector's leaks: once it is freed, another test's leaked object may take its address.)
        #expect(cleanInteractor == nil)
        #expect(await waitForLeaks(of: leakedInteractor, in: detector).map(\.kind) == [.deallocation])
    }
}

@MainActor
@Suite("Router children bookkeeping", .recordingLeakDetector)
struct RouterChildrenTests {
    @Test("detaching from the middle keeps the others in attach order, across compactions")
    func orderAfterDetach() {
        let parent = TestRouter()
        let children = (0..<200).map { _ in TestRouter() }
        for child in children { parent.attachChild(child) }
        // Detach every child at an odd position and the first 50 even ones: enough holes to
        // trigger compaction more than once.
        let detached = children.indices.filter { $0 % 2 == 1 || $0 < 100 }
        for index in detached { parent.detachChild(children[index]) }
        let expected = children.indices.filter { !detached.contains($0) }.map { children[$0] }
        #expect(parent.children.count == expected.count)
        #expect(zip(parent.children, expected).allSatisfy { $0 === $1 })
        // Detached children can come back, at the end.
        parent.attachChild(children[1])
        #expect(parent.children.last === children[1])
        #expect(parent.children.count == expected.count + 1)
    }
}
