import Layout
import LayoutDSL
import Testing

/// SnapKit's exact semantics where Ribcage's `ndl` used to differ, each as SnapKit's sources
/// have it (SnapKit 5: `Constraint.swift`, `ConstraintMakerEditable.swift`,
/// `ConstraintViewDSL.swift`), checked on solved frames.
@MainActor
@Suite("ndl: SnapKit's exact semantics")
struct SnapKitSemanticsTests {
    let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 50))
    let view = View()
    let other = View()

    init() {
        root.addSubview(view)
        root.addSubview(other)
    }

    @Test("update matches each attribute on its own: left alone updates a top.left chain's left")
    func updateMatchesOneAttributeOfAChain() throws {
        // Constraint.activateIfNeeded(updatingExisting:) looks each new layout constraint up
        // among all the item's layout constraints, not chain against chain.
        try view.ndl.makeConstraints { make in
            make.top.left.equalToSuperview()
            make.size.equalTo(10)
        }
        let updated = try view.ndl.updateConstraints { make in make.left.equalToSuperview().offset(7) }
        try root.solveLayout()
        #expect(view.frame == Rect(x: 7, y: 0, width: 10, height: 10))
        #expect(updated.count == 1)
    }

    @Test("update edges.inset(10) updates four edges that were made one by one")
    func updateEdgesMadeSeparately() throws {
        try view.ndl.makeConstraints { make in
            make.top.equalToSuperview()
            make.left.equalToSuperview()
            make.bottom.equalToSuperview()
            make.right.equalToSuperview()
        }
        try view.ndl.updateConstraints { make in make.edges.equalToSuperview().inset(10) }
        try root.solveLayout()
        #expect(view.frame == Rect(x: 10, y: 10, width: 80, height: 30))
        #expect(view.constraints.count == 4, "updated in place, none added")
    }

    @Test("an update that matches nothing is a typed error (SnapKit's fatalError) and changes nothing")
    func updateWithoutMatch() throws {
        try view.ndl.makeConstraints { make in
            make.top.left.equalToSuperview()
            make.size.equalTo(10)
        }
        let error = try #require(throws: LayoutError.self) {
            try view.ndl.updateConstraints { make in
                make.left.equalToSuperview().offset(5)
                make.centerY.equalToSuperview()
            }
        }
        guard case .updateMismatch = error else {
            Issue.record("expected updateMismatch, got \(error)")
            return
        }
        try root.solveLayout()
        #expect(view.frame.origin == .zero, "the matching left was not updated either")
    }

    @Test("inset takes its sign from the attribute related to: top.equalTo(a.bottom).inset(5) is −5")
    func insetSignFollowsTheTarget() throws {
        // Constraint.init computes the constant for layoutToAttribute, the target's attribute.
        try other.ndl.makeConstraints { make in
            make.top.left.equalToSuperview()
            make.size.equalTo(20)
        }
        var top: NDLConstraint?
        try view.ndl.makeConstraints { make in
            top = make.top.equalTo(other.ndl.bottom).inset(5).constraint
            make.left.equalToSuperview()
            make.size.equalTo(4)
        }
        try root.solveLayout()
        #expect(view.frame.minY == 15)
        // update(inset:) computes it the same way (updateConstantAndPriorityIfNeeded).
        top?.update(inset: 8)
        try root.solveLayout()
        #expect(view.frame.minY == 12)
    }

    @Test("multipliedBy(0.5).dividedBy(4): the last call wins, 0.25")
    func lastMultiplierWins() throws {
        try view.ndl.makeConstraints { make in
            make.top.left.equalToSuperview()
            make.height.equalTo(1)
            make.width.equalToSuperview().multipliedBy(0.5).dividedBy(4)
        }
        try other.ndl.makeConstraints { make in
            make.top.left.equalToSuperview()
            make.height.equalTo(1)
            make.width.equalToSuperview().dividedBy(4).multipliedBy(0.5)
        }
        try root.solveLayout()
        #expect(view.frame.width == 25)
        #expect(other.frame.width == 50)
    }

    @Test("a multiplier on a position works in the nearest common ancestor's coordinates")
    func positionMultiplierInAncestorSpace() throws {
        let container = View()
        root.addSubview(container)
        try container.ndl.makeConstraints { make in
            make.left.equalToSuperview().offset(40)
            make.top.equalToSuperview().offset(10)
            make.width.equalTo(40)
            make.height.equalTo(20)
        }
        let child = View()
        container.addSubview(child)
        try child.ndl.makeConstraints { make in
            make.centerX.equalToSuperview().multipliedBy(0.5)
            make.centerY.equalToSuperview().multipliedBy(0.5)
            make.size.equalTo(Size(width: 10, height: 4))
        }
        try root.solveLayout()
        // A quarter of the container from its own top-left corner, as Auto Layout puts it; in
        // the root's coordinates the centre would be at x 30, left of the container.
        #expect(child.frame == Rect(x: 5, y: 3, width: 10, height: 4))
    }

    @Test("isActive can be set on a made constraint, as SnapKit's Constraint.isActive")
    func settableIsActive() throws {
        var shift: NDLConstraint?
        try view.ndl.makeConstraints { make in
            make.top.equalToSuperview()
            make.left.equalToSuperview().priority(.low)
            shift = make.left.equalToSuperview().offset(30).constraint
            make.size.equalTo(5)
        }
        let constraint = try #require(shift)
        try root.solveLayout()
        #expect(view.frame.minX == 30)
        constraint.isActive = false
        try root.solveLayout()
        #expect(view.frame.minX == 0 && !constraint.isActive)
        constraint.isActive = true
        try root.solveLayout()
        #expect(view.frame.minX == 30 && constraint.isActive)
    }

    @Test("labels name constraints and views in conflict reports: labeled, label, setLabel")
    func labelsInReports() throws {
        view.ndl.setLabel("banner")
        #expect(view.ndl.label() == "banner")
        var wide: NDLConstraint?
        try view.ndl.makeConstraints { make in
            make.top.left.equalToSuperview()
            make.height.equalTo(1)
            make.width.equalTo(10).labeled("narrow")
            wide = make.width.equalTo(20).constraint
        }
        wide?.label = "wide"
        #expect(wide?.label == "wide")
        root.layoutIfNeeded()
        let error = try #require(root.layoutReport.errors.first)
        guard case .unsatisfiableConstraints(let broken, let involved) = error else {
            Issue.record("expected a conflict, got \(error)")
            return
        }
        let names = involved.map(\.description)
        #expect(names.contains { $0.contains("narrow") && $0.contains("View:banner.width") })
        #expect(names.contains { $0.contains("wide") })
        #expect(broken.description.contains("wide"))
    }

    @Test("hugging and compression resistance priorities in the DSL, as ConstraintViewDSL has them")
    func contentPrioritiesInTheDSL() throws {
        let name = Content(width: 8)
        let value = Content(width: 5)
        for tag in [name, value] { root.addSubview(tag) }
        name.ndl.contentHuggingHorizontalPriority = .defaultLow - 1
        #expect(name.contentHuggingPriority(for: .horizontal) == 249)
        #expect(value.ndl.contentCompressionResistanceVerticalPriority == .defaultHigh)
        try name.ndl.makeConstraints { make in make.leading.top.equalToSuperview() }
        try value.ndl.makeConstraints { make in
            make.leading.equalTo(name.ndl.trailing).offset(1)
            make.trailing.top.equalToSuperview()
        }
        try root.solveLayout()
        #expect(name.frame.width == 94 && value.frame.width == 5, "the lower hugging stretches")

        value.ndl.contentCompressionResistanceHorizontalPriority = 100
        value.ndl.contentHuggingHorizontalPriority = 100
        name.ndl.contentHuggingHorizontalPriority = .defaultLow
        try root.solveLayout()
        #expect(value.frame.width == 91, "now the value hugs least and stretches")
    }
}

/// A view one row tall with an intrinsic width, as a label would have.
@MainActor
private final class Content: View {
    let width: Double

    init(width: Double) {
        self.width = width
        super.init()
    }

    override var intrinsicContentSize: Size { Size(width: width, height: 1) }
}
