import Layout
import LayoutDSL
import Testing

@MainActor
@Suite(
    "Views placed by their frames: edit variables in the solver when referred to, reported when they give way"
)
struct FramePlacementTests {
    let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 10))

    @Test("a constrained sibling follows a frame-placed view as it moves and resizes")
    func siblingFollowsFrame() throws {
        let anchor = Tag(0)
        let follower = View()
        root.addSubview(anchor)
        root.addSubview(follower)
        anchor.frame = Rect(x: 2, y: 1, width: 5, height: 2)
        try follower.ndl.makeConstraints { make in
            make.left.equalTo(anchor.ndl.right).offset(1)
            make.top.equalTo(anchor.ndl.bottom)
            make.size.equalTo(anchor)
        }
        try root.solveLayout()
        #expect(follower.frame == Rect(x: 8, y: 3, width: 5, height: 2))

        let calls = anchor.layoutSubviewsCalls
        anchor.frame = Rect(x: 10, y: 0, width: 5, height: 2)
        try root.solveLayout()
        #expect(follower.frame == Rect(x: 16, y: 2, width: 5, height: 2))
        #expect(anchor.layoutSubviewsCalls == calls, "a move alone does not lay out the view again")

        anchor.frame = Rect(x: 10, y: 0, width: 7, height: 3)
        try root.solveLayout()
        #expect(follower.frame == Rect(x: 18, y: 3, width: 7, height: 3))
        #expect(anchor.layoutSubviewsCalls == calls + 1, "a new size lays the view out")
        #expect(root.layoutReport.errors.isEmpty)
    }

    @Test("a frame is relative to the superview, also after moving to another one")
    func reparenting() throws {
        let left = View(frame: Rect(x: 0, y: 0, width: 20, height: 10))
        let right = View(frame: Rect(x: 20, y: 0, width: 20, height: 10))
        let badge = View(frame: Rect(x: 1, y: 1, width: 3, height: 1))
        root.addSubview(left)
        root.addSubview(right)
        left.addSubview(badge)
        try root.solveLayout()
        #expect(badge.convert(Point.zero, to: root) == Point(x: 1, y: 1))
        right.addSubview(badge)
        try root.solveLayout()
        #expect(badge.frame == Rect(x: 1, y: 1, width: 3, height: 1))
        #expect(badge.convert(Point.zero, to: root) == Point(x: 21, y: 1))
    }

    @Test("turning translatesAutoresizingMaskIntoConstraints off hands the view to its constraints")
    func switchingToConstraints() throws {
        let box = Tag(6)
        box.frame = Rect(x: 1, y: 1, width: 2, height: 1)
        root.addSubview(box)
        try root.solveLayout()
        #expect(box.frame == Rect(x: 1, y: 1, width: 2, height: 1))
        try box.ndl.makeConstraints { make in make.right.bottom.equalToSuperview() }
        try root.solveLayout()
        #expect(box.frame == Rect(x: 34, y: 9, width: 6, height: 1))
        #expect(root.layoutReport.errors.isEmpty)
    }

    @Test("a frame that a required constraint overrides is reported broken, and comes back after")
    func frameGivesWayToRequired() throws {
        let box = View(frame: Rect(x: 2, y: 2, width: 5, height: 1))
        root.addSubview(box)
        let wide = LayoutConstraint(
            item: box, attribute: .width, relatedBy: .equal, constant: 12, identifier: "twelve wide")
        wide.isActive = true
        root.layoutIfNeeded()
        guard case .unsatisfiableConstraints(let broken, let involved) = root.layoutReport.errors.first else {
            Issue.record("expected the frame to be reported, got \(root.layoutReport.errors)")
            return
        }
        #expect(broken.description.contains("NSAutoresizingMaskLayoutConstraint"))
        #expect(broken.description.contains("width == 5"))
        #expect(involved.contains { $0.description.contains("twelve wide") })
        #expect(box.frame.width == 12)

        wide.isActive = false
        try root.solveLayout()
        #expect(box.frame == Rect(x: 2, y: 2, width: 5, height: 1))
    }

    @Test(
        "repeated frame changes keep one link pair per referred-to view in the solver, and the last frame wins"
    )
    func manyMovesKeepTheSolverSmall() throws {
        let cells = (0..<20).map { _ in View() }
        for cell in cells { root.addSubview(cell) }
        let marker = View()
        root.addSubview(marker)
        try marker.ndl.makeConstraints { make in
            make.left.equalTo(cells[19].ndl.right)
            make.top.equalTo(cells[19])
            make.size.equalTo(1)
        }
        for step in 0..<500 {
            for (slot, cell) in cells.enumerated() {
                cell.frame = Rect(x: 0, y: Double(slot % 10), width: Double(30 + step % 7), height: 1)
            }
            root.layoutIfNeeded()
        }
        // The marker's four constraints and the links of the one cell they refer to.
        #expect(root.solverConstraints.count == 6)
        #expect(cells[19].frame == Rect(x: 0, y: 9, width: Double(30 + 499 % 7), height: 1))
        #expect(marker.frame == Rect(x: Double(30 + 499 % 7), y: 9, width: 1, height: 1))
    }
}
