import Layout
import LayoutDSL
import Testing

/// SnapKit's test behaviours (its `Tests.swift`), checked on solved frames rather than on
/// constraint counts alone.
@MainActor
@Suite("ndl: SnapKit's behaviours, on solved frames")
struct SnapKitBehaviourTests {
    let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 50))
    let view = View()
    let other = View()

    init() {
        root.addSubview(view)
        root.addSubview(other)
    }

    private func solve() throws {
        try root.solveLayout()
    }

    @Test("makeConstraints installs one constraint per attribute and positions the view")
    func makeConstraints() throws {
        let made = try view.ndl.makeConstraints { make in
            make.top.left.equalTo(other).offset(5)
            make.width.height.equalTo(10)
        }
        #expect(made.count == 2)
        #expect(view.constraints.count == 4)
        #expect(!view.translatesAutoresizingMaskIntoConstraints)
        other.frame = Rect(x: 20, y: 10, width: 5, height: 5)
        try solve()
        #expect(view.frame == Rect(x: 25, y: 15, width: 10, height: 10))
    }

    @Test("a layout guide can be constrained and related to")
    func guideMakeConstraints() throws {
        let guide = LayoutGuide()
        root.addLayoutGuide(guide)
        try guide.ndl.makeConstraints { make in
            make.left.equalToSuperview().offset(30)
            make.top.bottom.equalToSuperview()
            make.width.equalTo(40)
        }
        try view.ndl.makeConstraints { make in
            make.edges.equalTo(guide)
        }
        try solve()
        #expect(guide.layoutFrame == Rect(x: 30, y: 0, width: 40, height: 50))
        #expect(view.frame == Rect(x: 30, y: 0, width: 40, height: 50))
    }

    @Test("a bare constant relates to the superview, except width and height")
    func impliedSuperview() throws {
        try view.ndl.makeConstraints { make in
            make.top.equalTo(7)
            make.left.equalTo(3)
            make.width.equalTo(20)
            make.height.equalTo(4)
        }
        let width = try #require(view.constraints.first { $0.firstAttribute == .width })
        #expect(width.secondItem == nil)
        let top = try #require(view.constraints.first { $0.firstAttribute == .top })
        #expect(top.secondItem === root)
        try solve()
        #expect(view.frame == Rect(x: 3, y: 7, width: 20, height: 4))
    }

    @Test("updateConstraints changes constants only and keeps the same constraints")
    func updateConstraints() throws {
        try view.ndl.makeConstraints { make in
            make.top.left.equalToSuperview().offset(2)
            make.size.equalTo(Size(width: 10, height: 10))
        }
        let before = view.constraints.map(ObjectIdentifier.init).sorted()
        try view.ndl.updateConstraints { make in
            make.top.left.equalToSuperview().offset(6)
        }
        #expect(view.constraints.map(ObjectIdentifier.init).sorted() == before)
        try solve()
        #expect(view.frame.origin == Point(x: 6, y: 6))
    }

    @Test("updateConstraints with no existing constraints makes them")
    func updateActsAsMake() throws {
        try view.ndl.updateConstraints { make in make.edges.equalToSuperview() }
        try solve()
        #expect(view.frame == root.bounds)
    }

    @Test("updateConstraints that changes more than a constant is an error, not a crash, and changes nothing")
    func updateMismatch() throws {
        try view.ndl.makeConstraints { make in
            make.top.equalToSuperview().offset(2)
            make.left.equalToSuperview()
            make.size.equalTo(5)
        }
        #expect(throws: LayoutError.self) {
            try view.ndl.updateConstraints { make in
                make.top.equalToSuperview().offset(9)
                make.top.equalTo(other).offset(9)
            }
        }
        do {
            try view.ndl.updateConstraints { make in make.top.equalToSuperview().offset(1).priority(.low) }
            Issue.record("a priority change must not pass as an update")
        } catch {
            guard case .updateMismatch = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
        try solve()
        #expect(view.frame.origin.y == 2)
    }

    @Test("remakeConstraints replaces every ndl constraint")
    func remakeConstraints() throws {
        try view.ndl.makeConstraints { make in make.edges.equalToSuperview() }
        try view.ndl.remakeConstraints { make in
            make.center.equalToSuperview()
            make.size.equalTo(10)
        }
        #expect(view.constraints.count == 4)
        try solve()
        #expect(view.frame == Rect(x: 45, y: 20, width: 10, height: 10))
    }

    @Test("a remake that misuses the DSL keeps the old constraints")
    func failedRemakeKeepsOld() throws {
        try view.ndl.makeConstraints { make in make.edges.equalToSuperview() }
        let orphan = View()
        #expect(throws: LayoutError.self) {
            try view.ndl.remakeConstraints { make in make.edges.equalTo(orphan) }
        }
        try solve()
        #expect(view.frame == root.bounds)
    }

    @Test("removeConstraints deactivates every ndl constraint")
    func removeConstraints() throws {
        try view.ndl.makeConstraints { make in
            make.edges.equalToSuperview()
        }
        view.ndl.removeConstraints()
        #expect(view.constraints.isEmpty)
    }

    @Test("prepareConstraints makes inactive constraints that activate later")
    func prepareConstraints() throws {
        let prepared = try view.ndl.prepareConstraints { make in
            make.edges.equalToSuperview().inset(10)
        }
        #expect(view.constraints.isEmpty)
        #expect(prepared.allSatisfy { !$0.isActive })
        for constraint in prepared { constraint.activate() }
        try solve()
        #expect(view.frame == Rect(x: 10, y: 10, width: 80, height: 30))
    }

    @Test("deactivate and activate again move the view back and forth")
    func reactivate() throws {
        var pin: NDLConstraint?
        try view.ndl.makeConstraints { make in
            make.left.top.equalToSuperview()
            make.size.equalTo(10)
            pin = make.right.equalToSuperview().priority(.high).constraint
        }
        let constraint = try #require(pin)
        try solve()
        #expect(view.frame.width == 10)  // size is required; the pin gives way
        #expect(root.layoutReport.gaveWay.contains { $0.refers(to: constraint.layoutConstraints[0]) })
        constraint.deactivate()
        #expect(!constraint.isActive)
        try solve()
        #expect(root.layoutReport.gaveWay.isEmpty)
        constraint.activate()
        #expect(constraint.isActive)
    }

    @Test("isActive reflects activate and deactivate")
    func activeFlag() throws {
        let made = try view.ndl.makeConstraints { make in make.width.equalTo(3) }
        #expect(made[0].isActive)
        made[0].deactivate()
        #expect(!made[0].isActive)
        #expect(view.constraints.isEmpty)
    }

    @Test("edges.equalToSuperview fills the superview")
    func edges() throws {
        try view.ndl.makeConstraints { make in make.edges.equalToSuperview() }
        try solve()
        #expect(view.frame == root.bounds)
    }

    @Test("update(offset:) moves a kept constraint at the next layout")
    func updateReferenced() throws {
        var top: NDLConstraint?
        try view.ndl.makeConstraints { make in
            top = make.top.equalToSuperview().offset(2).constraint
            make.left.equalToSuperview()
            make.size.equalTo(4)
        }
        try solve()
        #expect(view.frame.minY == 2)
        top?.update(offset: 12)
        try solve()
        #expect(view.frame.minY == 12)
        top?.update(inset: 5)
        try solve()
        #expect(view.frame.minY == 5)
    }

    @Test("inset(n) insets every edge inwards: 50, 50, −50, −50 (offset does not)")
    func insetVersusOffset() throws {
        let made = try view.ndl.makeConstraints { make in make.edges.equalToSuperview().inset(5) }
        let constants = made[0].layoutConstraints.map(\.constant)
        #expect(constants == [5, 5, -5, -5])  // left, top, right, bottom
        try solve()
        #expect(view.frame == Rect(x: 5, y: 5, width: 90, height: 40))
        try view.ndl.remakeConstraints { make in make.edges.equalToSuperview().offset(5) }
        try solve()
        #expect(view.frame == Rect(x: 5, y: 5, width: 100, height: 50))
    }

    @Test("EdgeInsets as a constant: left and top add, right and bottom subtract")
    func insetsAsConstant() throws {
        try view.ndl.makeConstraints { make in
            make.edges.equalToSuperview().inset(EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        }
        try solve()
        #expect(view.frame == Rect(x: 2, y: 1, width: 94, height: 46))
    }

    @Test("EdgeInsets as an implied equalTo target relate to the superview")
    func insetsAsImpliedTarget() throws {
        try view.ndl.makeConstraints { make in
            make.edges.equalTo(EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        }
        try solve()
        #expect(view.frame == Rect(x: 2, y: 1, width: 94, height: 46))
    }

    @Test("DirectionalEdgeInsets follow the layout direction")
    func directionalInsets() throws {
        let insets = DirectionalEdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4)
        try view.ndl.makeConstraints { make in make.directionalEdges.equalToSuperview().inset(insets) }
        try solve()
        #expect(view.frame == Rect(x: 2, y: 1, width: 94, height: 46))
        root.semanticLayoutDirection = .rightToLeft
        try view.ndl.remakeConstraints { make in make.directionalEdges.equalToSuperview().inset(insets) }
        try solve()
        #expect(view.frame == Rect(x: 4, y: 1, width: 94, height: 46))
    }

    @Test("DirectionalEdgeInsets as an implied target")
    func directionalInsetsImplied() throws {
        try view.ndl.makeConstraints { make in
            make.directionalEdges.equalTo(DirectionalEdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4))
        }
        try solve()
        #expect(view.frame == Rect(x: 2, y: 1, width: 94, height: 46))
    }

    @Test("size constraints have no second item and size the view")
    func sizeConstraints() throws {
        let made = try view.ndl.makeConstraints { make in
            make.size.equalTo(Size(width: 30, height: 6))
            make.left.top.equalToSuperview()
        }
        #expect(made[0].layoutConstraints.allSatisfy { $0.secondItem == nil })
        try solve()
        #expect(view.frame.size == Size(width: 30, height: 6))
        try view.ndl.remakeConstraints { make in
            make.size.equalTo(other).multipliedBy(0.5)
            make.left.top.equalToSuperview()
        }
        other.frame = Rect(x: 0, y: 0, width: 40, height: 20)
        try solve()
        #expect(view.frame.size == Size(width: 20, height: 10))
    }

    @Test("center constraints centre the view; a Point centres it at that point of the superview")
    func centerConstraints() throws {
        try view.ndl.makeConstraints { make in
            make.center.equalToSuperview()
            make.size.equalTo(10)
        }
        try solve()
        #expect(view.center == Point(x: 50, y: 25))
        try view.ndl.remakeConstraints { make in
            make.center.equalTo(Point(x: 20, y: 10))
            make.size.equalTo(10)
        }
        try solve()
        #expect(view.center == Point(x: 20, y: 10))
    }

    @Test("labeled names the constraint in its description, with file and line")
    func labels() throws {
        let made = try view.ndl.makeConstraints { make in
            make.width.equalTo(other).multipliedBy(2).offset(3).priority(.high).labeled("twice")
        }
        let text = made[0].description
        #expect(text.contains("twice@SnapKitBehaviourTests.swift#"))
        #expect(text.contains(".width == View:"))
        #expect(text.contains("* 2 + 3 ^750"))
        view.accessibilityIdentifier = "badge"
        #expect(made[0].layoutConstraints[0].description.contains("View:badge.width"))
    }

    @Test("edges to edges of another view, and horizontal and vertical edges alone")
    func edgesToEdges() throws {
        other.frame = Rect(x: 10, y: 5, width: 30, height: 20)
        try view.ndl.makeConstraints { make in make.edges.equalTo(other.ndl.edges) }
        try solve()
        #expect(view.frame == other.frame)
        try view.ndl.remakeConstraints { make in
            make.horizontalEdges.equalTo(other.ndl.horizontalEdges)
            make.verticalEdges.equalToSuperview()
        }
        try solve()
        #expect(view.frame == Rect(x: 10, y: 0, width: 30, height: 50))
        try view.ndl.remakeConstraints { make in
            make.directionalEdges.equalTo(other.ndl.directionalEdges)
        }
        try solve()
        #expect(view.frame == other.frame)
    }

    @Test("the original RIBs-todo app's horizontal and vertical spellings and .constant(_:) that adds")
    func originalAppSpellings() throws {
        try view.ndl.makeConstraints { make in
            make.horizontal.equalToSuperview()
            make.top.equalTo(root).constant(2).constant(3)
            make.height.equalTo(4)
        }
        try solve()
        #expect(view.frame == Rect(x: 0, y: 5, width: 100, height: 4))
        root.additionalSafeAreaInsets = EdgeInsets(top: 2)
        try view.ndl.remakeConstraints { make in
            make.top.equalTo(root, needSafeAreaLayoutGuide: true)
            make.left.equalTo(root).offset(1)
            make.size.equalTo(3)
        }
        try solve()
        #expect(view.frame.origin == Point(x: 1, y: 2))
    }

    @Test("edges relate to margins, and margins to edges")
    func edgesToMargins() throws {
        root.layoutMargins = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
        try view.ndl.makeConstraints { make in make.edges.equalTo(root.ndl.margins) }
        try solve()
        #expect(view.frame == Rect(x: 2, y: 1, width: 94, height: 46))
        try view.ndl.remakeConstraints { make in make.margins.equalToSuperview() }
        view.layoutMargins = EdgeInsets(all: 1)
        try solve()
        // view.leftMargin == root.leftMargin: view.left + 1 == 2, and so on.
        #expect(view.frame == Rect(x: 1, y: 0, width: 96, height: 48))
    }

    @Test("priority shortcuts and numbers, and the UIKit values")
    func priorities() throws {
        #expect(LayoutPriority.required.rawValue == 1_000)
        #expect(LayoutPriority.high.rawValue == 750)
        #expect(LayoutPriority.medium.rawValue == 500)
        #expect(LayoutPriority.low.rawValue == 250)
        let made = try view.ndl.makeConstraints { make in
            make.width.equalTo(1).priority(.medium)
            make.height.equalTo(1).priority(300)
            make.left.equalTo(1).priority(Double(42.5))
        }
        #expect(made.map { $0.layoutConstraints[0].priority.rawValue } == [500, 300, 42.5])
    }

    @Test("priorities stride, as SnapKit's ConstraintPriority does")
    func priorityStride() {
        #expect(LayoutPriority.high.advanced(by: 1).rawValue == 751)
        #expect((LayoutPriority.low - 1).rawValue == 249)
        #expect(Array(stride(from: LayoutPriority.low, to: .high, by: 250)).map(\.rawValue) == [250, 500])
        #expect(LayoutPriority(2_000) == .required)
    }

    @Test("a guide's superview is its owning view; safe-area guides inset by the safe area")
    func layoutGuides() throws {
        root.additionalSafeAreaInsets = EdgeInsets(top: 1, left: 0, bottom: 2, right: 0)
        try view.ndl.makeConstraints { make in
            make.edges.equalToSuperview { $0.safeAreaLayoutGuide }
        }
        try solve()
        #expect(view.frame == Rect(x: 0, y: 1, width: 100, height: 47))
        #expect(root.safeAreaLayoutGuide.layoutFrame == Rect(x: 0, y: 1, width: 100, height: 47))
    }

    @Test("the top and bottom of the safe area, as UIKit's top and bottom layout guides")
    func topAndBottomLayoutGuides() throws {
        root.additionalSafeAreaInsets = EdgeInsets(top: 3, left: 0, bottom: 4, right: 0)
        try view.ndl.makeConstraints { make in
            make.top.equalTo(root.safeAreaLayoutGuide.ndl.top)
            make.bottom.equalTo(root.safeAreaLayoutGuide.ndl.bottom)
            make.left.right.equalToSuperview()
        }
        try solve()
        #expect(view.frame == Rect(x: 0, y: 3, width: 100, height: 43))
    }

    @Test("directional margins and centres within margins follow the margins")
    func directionalMargins() throws {
        root.directionalLayoutMargins = DirectionalEdgeInsets(top: 2, leading: 4, bottom: 2, trailing: 10)
        try view.ndl.makeConstraints { make in make.directionalEdges.equalTo(root.ndl.directionalMargins) }
        try other.ndl.makeConstraints { make in
            make.centerWithinMargins.equalToSuperview()
            make.size.equalTo(2)
        }
        try solve()
        #expect(view.frame == Rect(x: 4, y: 2, width: 86, height: 46))
        #expect(other.center == Point(x: 47, y: 25))
    }

    @Test("misuse is a typed error: no superview, different trees, mismatched attributes")
    func misuse() throws {
        let loose = View()
        #expect(throws: LayoutError.noSuperview(item: loose.layoutDebugName, attribute: "top")) {
            try loose.ndl.makeConstraints { make in make.top.equalToSuperview() }
        }
        #expect(throws: LayoutError.self) {
            try view.ndl.makeConstraints { make in make.top.equalTo(loose) }
        }
        #expect(throws: LayoutError.mismatchedAttributes(from: "top.bottom", to: "left.right")) {
            try view.ndl.makeConstraints { make in make.top.bottom.equalTo(other.ndl.horizontalEdges) }
        }
        #expect(throws: LayoutError.self) {
            try view.ndl.makeConstraints { make in make.leading.equalTo(other.ndl.left) }
        }
        #expect(throws: LayoutError.self) {
            try view.ndl.makeConstraints { make in make.width.equalTo(other).dividedBy(0) }
        }
        #expect(view.constraints.isEmpty)
    }
}
