import RIBs
import Testing

@MainActor
@Suite("RouterTree introspection", .recordingLeakDetector)
struct RouterTreeTests {
    func makeTree() -> (TestLaunchRouter, [TestRouter]) {
        let root = TestLaunchRouter(interactor: InteractorMock(), viewController: ViewControllerMock())
        root.launch(from: WindowMock())
        let todo = TestRouter()
        let addTodo = TestRouter()
        let profile = TestRouter()
        root.attachChild(todo)
        todo.attachChild(addTodo)
        root.attachChild(profile)
        profile.interactor.deactivate()
        return (root, [todo, addTodo, profile])
    }

    @Test("prints the live tree as indented text with state and viewability")
    func text() {
        let (root, children) = makeTree()
        #expect(
            RouterTree(root).text == """
                TestLaunchRouter [active, view]
                ├─ TestRouter [active]
                │  └─ TestRouter [active]
                └─ TestRouter [inactive]
                """)
        _ = children
    }

    @Test("prints the live tree as Graphviz DOT")
    func dot() {
        let (root, children) = makeTree()
        let dot = RouterTree(root).dot
        #expect(dot.hasPrefix("digraph RIBs {"))
        #expect(
            dot.contains("n0 [label=\"TestLaunchRouter [active, view]\", shape=box, fillcolor=palegreen];"))
        #expect(dot.contains("n3 [label=\"TestRouter [inactive]\", shape=ellipse, fillcolor=lightgrey];"))
        #expect(dot.contains("n0 -> n1;"))
        #expect(dot.contains("n1 -> n2;"))
        #expect(dot.contains("n0 -> n3;"))
        _ = children
    }
}

@MainActor
@Suite("Large trees", .recordingLeakDetector)
struct LargeTreeTests {
    @Test("a 100-deep tree attaches, cascades and detaches")
    func deep() {
        let root = TestRouter()
        root.interactor.activate()
        root.load()
        var chain: [TestRouter] = [root]
        for _ in 0..<100 {
            let child = TestRouter()
            chain[chain.count - 1].attachChild(child)
            chain.append(child)
        }
        #expect(chain.allSatisfy { $0.interactor.isActive })
        root.interactor.deactivate()
        #expect(chain.allSatisfy { !$0.interactor.isActive })
        root.interactor.activate()
        #expect(chain.allSatisfy { $0.interactor.isActive })
        root.detachChild(chain[1])
        #expect(chain.dropFirst().allSatisfy { !$0.interactor.isActive })
        #expect(root.interactor.isActive)
    }

    @Test("a 1,000-wide tree attaches and detaches every child, which then deallocates")
    func wide() {
        let root = TestRouter()
        root.interactor.activate()
        root.load()
        var children: [TestRouter] = (0..<1_000).map { _ in TestRouter() }
        for child in children { root.attachChild(child) }
        #expect(root.children.count == 1_000)
        #expect(children.allSatisfy { $0.interactor.isActive && $0.didLoadCount == 1 })
        weak let firstInteractor = children[0].interactor
        for child in children { root.detachChild(child) }
        #expect(root.children.isEmpty)
        #expect(children.allSatisfy { !$0.interactor.isActive })
        children.removeAll()
        #expect(firstInteractor == nil)
    }
}
