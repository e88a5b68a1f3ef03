import Layout
import LayoutDSL
import Testing

/// A view with an intrinsic size, as a label would have.
@MainActor
final class Tag: View {
    var content: Size {
        didSet { invalidateIntrinsicContentSize() }
    }
    var layoutSubviewsCalls = 0

    init(_ width: Double, _ height: Double = 1) {
        content = Size(width: width, height: height)
        super.init()
    }

    override var intrinsicContentSize: Size { content }
    override var firstBaselineOffsetFromTop: Double? { 1 }
    override func layoutSubviews() { layoutSubviewsCalls += 1 }
}

@MainActor
@Suite("Views: frames from constraints, intrinsic sizes, direction, conflicts")
struct ViewLayoutTests {
    let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 10))

    @Test("a root keeps its frame; views without constraints keep theirs")
    func framesWithoutConstraints() throws {
        let box = View(frame: Rect(x: 3, y: 2, width: 5, height: 4))
        root.addSubview(box)
        try root.solveLayout()
        #expect(box.frame == Rect(x: 3, y: 2, width: 5, height: 4))
        #expect(root.frame == Rect(x: 0, y: 0, width: 40, height: 10))
        box.frame = Rect(x: 1, y: 1, width: 2, height: 2)
        try root.solveLayout()
        #expect(box.frame == Rect(x: 1, y: 1, width: 2, height: 2))
    }

    @Test("frames are relative to the superview; convert maps between views")
    func nestedFrames() throws {
        let card = View()
        let badge = View()
        root.addSubview(card)
        card.addSubview(badge)
        try card.ndl.makeConstraints { make in make.edges.equalToSuperview().inset(2) }
        try badge.ndl.makeConstraints { make in
            make.top.left.equalToSuperview().offset(1)
            make.size.equalTo(3)
        }
        try root.solveLayout()
        #expect(card.frame == Rect(x: 2, y: 2, width: 36, height: 6))
        #expect(badge.frame == Rect(x: 1, y: 1, width: 3, height: 3))
        #expect(badge.convert(Point.zero, to: root) == Point(x: 3, y: 3))
        #expect(
            badge.convert(Rect(x: 1, y: 0, width: 1, height: 1), to: card)
                == Rect(x: 2, y: 1, width: 1, height: 1))
    }

    @Test("intrinsic size: hugging keeps views at their content; the lower hugging stretches")
    func hugging() throws {
        let name = Tag(8)
        let value = Tag(5)
        for view in [name, value] { root.addSubview(view) }
        name.setContentHuggingPriority(.defaultLow - 1, for: .horizontal)
        try name.ndl.makeConstraints { make in make.leading.top.equalToSuperview() }
        try value.ndl.makeConstraints { make in
            make.leading.equalTo(name.ndl.trailing).offset(1)
            make.trailing.top.equalToSuperview()
        }
        try root.solveLayout()
        #expect(value.frame == Rect(x: 35, y: 0, width: 5, height: 1))
        #expect(name.frame == Rect(x: 0, y: 0, width: 34, height: 1))
    }

    @Test("compression resistance decides who shrinks when content does not fit")
    func compression() throws {
        let first = Tag(30)
        let second = Tag(30)
        for view in [first, second] { root.addSubview(view) }
        second.setContentCompressionResistancePriority(.defaultHigh + 1, for: .horizontal)
        try first.ndl.makeConstraints { make in make.leading.top.equalToSuperview() }
        try second.ndl.makeConstraints { make in
            make.leading.equalTo(first.ndl.trailing)
            make.trailing.top.equalToSuperview()
        }
        try root.solveLayout()
        #expect(second.frame.width == 30)
        #expect(first.frame.width == 10)
        first.content = Size(width: 4, height: 1)
        try root.solveLayout()
        #expect(first.frame.width == 10)  // hugging (250) gives way to the required trailing pin
        #expect(second.frame.width == 30)
    }

    @Test("right-to-left: leading is the right edge, and a change of direction re-lays out")
    func rightToLeft() throws {
        let icon = Tag(2)
        let title = Tag(6)
        for view in [icon, title] { root.addSubview(view) }
        try icon.ndl.makeConstraints { make in make.leading.top.equalToSuperview().offset(1) }
        try title.ndl.makeConstraints { make in
            make.leading.equalTo(icon.ndl.trailing).offset(1)
            make.firstBaseline.equalTo(icon.ndl.firstBaseline)
        }
        try root.solveLayout()
        #expect(icon.frame == Rect(x: 1, y: 1, width: 2, height: 1))
        #expect(title.frame == Rect(x: 4, y: 1, width: 6, height: 1))
        root.semanticLayoutDirection = .rightToLeft
        try root.solveLayout()
        #expect(icon.frame == Rect(x: 37, y: 1, width: 2, height: 1))
        #expect(title.frame == Rect(x: 30, y: 1, width: 6, height: 1))
        #expect(title.effectiveUserInterfaceLayoutDirection == .rightToLeft)
    }

    @Test("margins: margin attributes keep to layoutMargins, and follow changes")
    func margins() throws {
        let body = View()
        root.addSubview(body)
        root.layoutMargins = EdgeInsets(all: 1)
        try body.ndl.makeConstraints { make in make.edges.equalTo(root.ndl.margins) }
        try root.solveLayout()
        #expect(body.frame == Rect(x: 1, y: 1, width: 38, height: 8))
        root.directionalLayoutMargins = DirectionalEdgeInsets(top: 0, leading: 3, bottom: 0, trailing: 1)
        try root.solveLayout()
        #expect(body.frame == Rect(x: 3, y: 0, width: 36, height: 10))
    }

    @Test("a subview's safe area is the part of its superview's safe area it covers")
    func safeAreaOfSubviews() throws {
        root.additionalSafeAreaInsets = EdgeInsets(top: 2, left: 0, bottom: 1, right: 0)
        let panel = View()
        let content = View()
        root.addSubview(panel)
        panel.addSubview(content)
        try panel.ndl.makeConstraints { make in
            make.top.left.right.equalToSuperview()
            make.height.equalTo(5)
        }
        try content.ndl.makeConstraints { make in make.edges.equalTo(panel.safeAreaLayoutGuide) }
        try root.solveLayout()
        #expect(panel.safeAreaInsets == EdgeInsets(top: 2, left: 0, bottom: 0, right: 0))
        #expect(content.frame == Rect(x: 0, y: 2, width: 40, height: 3))
        root.additionalSafeAreaInsets = EdgeInsets(top: 1)
        try root.solveLayout()
        #expect(content.frame == Rect(x: 0, y: 1, width: 40, height: 4))
    }

    @Test("a required conflict breaks one constraint, names every one involved, and never crashes")
    func requiredConflict() throws {
        let box = View()
        root.addSubview(box)
        try box.ndl.makeConstraints { make in
            make.left.top.equalToSuperview()
            make.height.equalTo(1)
            make.width.equalTo(10).labeled("ten")
        }
        try box.ndl.makeConstraints { make in make.width.equalTo(20).labeled("twenty") }
        box.layoutIfNeeded()
        let report = root.layoutReport
        guard case .unsatisfiableConstraints(let broken, let involved) = report.errors.first else {
            Issue.record("expected an unsatisfiable-constraints error, got \(report.errors)")
            return
        }
        #expect(involved.count == 2)
        #expect(involved.contains { $0.description.contains("ten") })
        #expect(involved.contains { $0.description.contains("twenty") })
        #expect(broken.description.contains("twenty") || broken.description.contains("ten"))
        #expect([10, 20].contains(box.frame.width))
        #expect(throws: LayoutError.self) { try root.solveLayout() }
        #expect("\(report.errors[0])".hasPrefix("Unable to simultaneously satisfy constraints"))
    }

    @Test("the involved set is the smallest conflict, not every constraint of the view")
    func smallestConflict() throws {
        let a = View()
        let b = View()
        root.addSubview(a)
        root.addSubview(b)
        try a.ndl.makeConstraints { make in
            make.top.height.equalTo(1)
            make.left.equalToSuperview()
            make.width.equalTo(10)
        }
        try b.ndl.makeConstraints { make in
            make.top.height.equalTo(1)
            make.left.equalTo(a.ndl.right).labeled("after a")
            make.right.equalTo(a.ndl.left).labeled("before a")
            make.width.equalTo(4).labeled("b is 4 wide")
        }
        root.layoutIfNeeded()
        guard case .unsatisfiableConstraints(_, let involved) = root.layoutReport.errors.first else {
            Issue.record("expected a conflict")
            return
        }
        // b.left == a.right and b.right == a.left with a 10 wide make b −10 wide, not 4. The
        // tops, heights and a's left edge take no part, so they are not named.
        #expect(involved.count == 4)
        for label in ["after a", "before a", "b is 4 wide"] {
            #expect(involved.contains { $0.description.contains(label) })
        }
        #expect(involved.contains { $0.description.contains(".width == 10") })
    }

    @Test("optional constraints give way by priority, and the report names them")
    func optionalGiveWay() throws {
        let box = View()
        root.addSubview(box)
        var low: NDLConstraint?
        try box.ndl.makeConstraints { make in
            make.left.top.height.equalTo(0)
            make.width.equalTo(30).priority(.high)
            low = make.width.equalTo(5).priority(.low).labeled("narrow").constraint
        }
        try root.solveLayout()
        #expect(box.frame.width == 30)
        #expect(root.layoutReport.gaveWay.count == 1)
        #expect(root.layoutReport.gaveWay.first?.description.contains("narrow") == true)
        low?.update(priority: .required)
        try root.solveLayout()
        #expect(box.frame.width == 5)
    }

    @Test("a resize re-solves through edit variables and calls layoutSubviews where sizes changed")
    func resize() throws {
        let tag = Tag(4)
        root.addSubview(tag)
        try tag.ndl.makeConstraints { make in
            make.leading.trailing.equalToSuperview().inset(2)
            make.centerY.equalToSuperview()
        }
        try root.solveLayout()
        let calls = tag.layoutSubviewsCalls
        #expect(tag.frame == Rect(x: 2, y: 4.5, width: 36, height: 1))
        root.frame = Rect(x: 0, y: 0, width: 80, height: 24)
        try root.solveLayout()
        #expect(tag.frame == Rect(x: 2, y: 11.5, width: 76, height: 1))
        #expect(tag.layoutSubviewsCalls == calls + 1)
    }

    @Test("removing a view deactivates the constraints that crossed out of its subtree")
    func removal() throws {
        let a = View()
        let b = View()
        let child = View()
        root.addSubview(a)
        root.addSubview(b)
        a.addSubview(child)
        try child.ndl.makeConstraints { make in make.edges.equalToSuperview() }
        try b.ndl.makeConstraints { make in make.edges.equalTo(a) }
        try a.ndl.makeConstraints { make in make.edges.equalToSuperview() }
        try root.solveLayout()
        a.removeFromSuperview()
        #expect(b.constraints.isEmpty)  // b.edges == a crossed out of the tree
        #expect(child.constraints.count == 4)  // inside a's subtree: kept
        #expect(a.constraints.isEmpty)  // a.edges == root: crossed
        try root.solveLayout()
        a.frame = Rect(x: 0, y: 0, width: 6, height: 6)
        try a.solveLayout()
        #expect(child.frame == Rect(x: 0, y: 0, width: 6, height: 6))
    }

    @Test("constraints across two trees are reported, not crashed on")
    func noCommonAncestor() throws {
        let here = View()
        let elsewhere = View(frame: Rect(x: 0, y: 0, width: 5, height: 5))
        let there = View()
        root.addSubview(here)
        elsewhere.addSubview(there)
        LayoutConstraint(item: here, attribute: .width, relatedBy: .equal, toItem: there, attribute: .width)
            .isActive = true
        root.layoutIfNeeded()
        #expect(root.layoutReport.errors.contains { if case .noCommonAncestor = $0 { true } else { false } })
    }

    @Test("adding a view to its own descendant is refused and leaves the tree as it was")
    func cycle() {
        let child = View()
        root.addSubview(child)
        child.addSubview(root)
        #expect(root.superview == nil)
        #expect(child.superview === root)
    }

    @Test("layoutSubviews may change constraints; the same layoutIfNeeded solves them")
    func layoutSubviewsChanges() throws {
        final class Growing: View {
            var grown = false
            override func layoutSubviews() {
                guard !grown else { return }
                grown = true
                _ = try? ndl.updateConstraints { make in make.height.equalTo(7) }
            }
        }
        let growing = Growing()
        root.addSubview(growing)
        try growing.ndl.makeConstraints { make in
            make.left.top.width.equalToSuperview()
            make.height.equalTo(2)
        }
        try root.solveLayout()
        #expect(growing.frame.height == 7)
    }
}
