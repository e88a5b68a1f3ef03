import Layout
import LayoutDSL
import Testing

/// Views placed by their frames stay out of the solver until a constraint refers to them; these
/// check each way in and out, and that a frame means the same on either side.
@MainActor
@Suite("Views placed by their frames join the solver only while a constraint refers to them")
struct FramePlacementSolverTests {
    let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 10))

    /// Adds `views` to `parent` (the root when `nil`), in order.
    func add(_ views: View..., to parent: View? = nil) {
        for view in views { (parent ?? root).addSubview(view) }
    }

    /// Sets `view`'s frame, as an app places a view, and lays the root out.
    func move(_ view: View, to frame: Rect) throws {
        view.frame = frame
        try root.solveLayout()
    }

    /// Whether the solver holds `view`'s frame as edit variables.
    func isInSolver(_ view: View) -> Bool {
        root.solverEdits.contains { $0.variable === view.layoutVariables.width }
    }

    @Test("nested frames no constraint refers to cost the solver nothing and still nest")
    func framesOutsideTheSolver() throws {
        let row = Tag(0)
        let label = Tag(0)
        root.addSubview(row)
        row.addSubview(label)
        row.frame = Rect(x: 3, y: 4, width: 20, height: 1)
        try move(label, to: Rect(x: 2, y: 0, width: 10, height: 1))
        #expect(root.solverConstraints.isEmpty)
        #expect(root.solverEdits.count == 4, "the root's frame only")
        #expect(row.frame == Rect(x: 3, y: 4, width: 20, height: 1))
        #expect(label.convert(Point.zero, to: root) == Point(x: 5, y: 4))
        #expect(label.layoutVariables.left.value == 5, "the variables say what the solver would")
        #expect(label.layoutVariables.top.value == 4)
        #expect(label.layoutVariables.width.value == 10)

        let calls = (row.layoutSubviewsCalls, label.layoutSubviewsCalls)
        try move(row, to: Rect(x: 3, y: 5, width: 20, height: 1))
        #expect(label.layoutVariables.top.value == 5)
        #expect(row.layoutSubviewsCalls == calls.0, "a move alone does not lay the row out again")
        try move(row, to: Rect(x: 3, y: 5, width: 24, height: 1))
        #expect(row.layoutSubviewsCalls == calls.0 + 1, "a new size does")
        #expect(label.layoutSubviewsCalls == calls.1)
    }

    @Test("a view joins when a constraint refers to it, follows its frame there, and leaves with it")
    func joiningAndLeaving() throws {
        let anchor = Tag(0)
        let follower = View()
        add(anchor, follower)
        try move(anchor, to: Rect(x: 2, y: 1, width: 5, height: 2))
        #expect(!isInSolver(anchor))

        try follower.ndl.makeConstraints { make in
            make.left.equalTo(anchor.ndl.right).offset(1)
            make.top.equalTo(anchor)
            make.width.height.equalTo(3)
        }
        try root.solveLayout()
        #expect(isInSolver(anchor))
        #expect(follower.frame == Rect(x: 8, y: 1, width: 3, height: 3))
        try move(anchor, to: Rect(x: 10, y: 2, width: 6, height: 2))
        #expect(follower.frame == Rect(x: 17, y: 2, width: 3, height: 3))

        follower.ndl.removeConstraints()
        try root.solveLayout()
        #expect(!isInSolver(anchor))
        #expect(root.solverConstraints.isEmpty)
        #expect(anchor.frame == Rect(x: 10, y: 2, width: 6, height: 2))
        try move(anchor, to: Rect(x: 0, y: 0, width: 4, height: 1))
        #expect(anchor.frame == Rect(x: 0, y: 0, width: 4, height: 1))
        #expect(anchor.layoutVariables.width.value == 4)
    }

    @Test("a view that joins later is placed at the frame the app set while it was outside")
    func joiningAfterMoves() throws {
        let anchor = View()
        root.addSubview(anchor)
        for x in 0..<5 {
            try move(anchor, to: Rect(x: Double(x), y: 0, width: 3, height: 1))
        }
        let badge = View()
        root.addSubview(badge)
        anchor.frame = Rect(x: 9, y: 3, width: 3, height: 1)
        try badge.ndl.makeConstraints { make in
            make.left.equalTo(anchor.ndl.right)
            make.centerY.equalTo(anchor)
            make.size.equalTo(1)
        }
        try root.solveLayout()
        #expect(badge.frame == Rect(x: 12, y: 3, width: 1, height: 1))
        #expect(anchor.frame == Rect(x: 9, y: 3, width: 3, height: 1))
    }

    @Test("a constraint to a view inside frame-placed views brings its frame-placed ancestors in")
    func ancestorsJoinToo() throws {
        let card = View(frame: Rect(x: 10, y: 2, width: 20, height: 6))
        let body = View(frame: Rect(x: 1, y: 1, width: 18, height: 4))
        let untouched = View(frame: Rect(x: 0, y: 0, width: 5, height: 1))
        let mark = View()
        add(card, untouched)
        card.addSubview(body)
        root.addSubview(mark)
        try mark.ndl.makeConstraints { make in
            make.right.equalTo(body.ndl.right)
            make.bottom.equalTo(body.ndl.bottom)
            make.size.equalTo(1)
        }
        try root.solveLayout()
        #expect(isInSolver(body) && isInSolver(card))
        #expect(!isInSolver(untouched))
        #expect(mark.frame == Rect(x: 28, y: 6, width: 1, height: 1))

        try move(card, to: Rect(x: 0, y: 0, width: 20, height: 6))
        #expect(mark.frame == Rect(x: 18, y: 4, width: 1, height: 1))

        mark.removeFromSuperview()
        try root.solveLayout()
        #expect(!isInSolver(body) && !isInSolver(card))
        #expect(root.solverConstraints.isEmpty)
        #expect(body.convert(Point.zero, to: root) == Point(x: 1, y: 1))
    }

    @Test("a constrained view inside a frame outside the solver is placed in that frame's coordinates")
    func constrainedChildOfAFreeFrame() throws {
        let panel = View(frame: Rect(x: 10, y: 3, width: 20, height: 5))
        let label = View()
        root.addSubview(panel)
        panel.addSubview(label)
        try label.ndl.makeConstraints { make in
            make.left.equalTo(root).offset(12)
            make.top.equalTo(root).offset(4)
            make.width.equalTo(6)
            make.height.equalTo(1)
        }
        try root.solveLayout()
        #expect(!isInSolver(panel), "no constraint refers to the panel")
        #expect(label.frame == Rect(x: 2, y: 1, width: 6, height: 1))
        try move(panel, to: Rect(x: 0, y: 0, width: 20, height: 5))
        #expect(label.frame == Rect(x: 12, y: 4, width: 6, height: 1))
    }

    @Test("a view in the solver leaves it when removed from the tree or moved to another superview")
    func removalAndReparenting() throws {
        let left = View(frame: Rect(x: 0, y: 0, width: 20, height: 10))
        let right = View(frame: Rect(x: 20, y: 0, width: 20, height: 10))
        let chip = View(frame: Rect(x: 1, y: 1, width: 4, height: 1))
        let shadow = View()
        add(left, right)
        add(chip, shadow, to: left)
        try shadow.ndl.makeConstraints { make in
            make.top.equalTo(chip.ndl.bottom)
            make.left.width.equalTo(chip)
            make.height.equalTo(1)
        }
        try root.solveLayout()
        #expect(isInSolver(chip) && isInSolver(left) && !isInSolver(right))
        #expect(shadow.frame == Rect(x: 1, y: 2, width: 4, height: 1))

        // Moving the chip out of the subtree deactivates the constraints that cross, as UIKit does.
        right.addSubview(chip)
        try root.solveLayout()
        #expect(!isInSolver(chip) && !isInSolver(left) && !isInSolver(right))
        #expect(chip.convert(Point.zero, to: root) == Point(x: 21, y: 1))
        #expect(root.solverEdits.count == 4)

        let tracker = View()
        right.addSubview(tracker)
        try tracker.ndl.makeConstraints { make in make.edges.equalTo(chip) }
        try root.solveLayout()
        #expect(isInSolver(chip) && isInSolver(right))
        #expect(tracker.frame == Rect(x: 1, y: 1, width: 4, height: 1))

        right.removeFromSuperview()
        try root.solveLayout()
        #expect(root.solverEdits.count == 4, "the removed subtree's frames left the solver")
        #expect(
            root.solverConstraints.allSatisfy { constraint in
                !["frame x", "frame y"].contains { constraint.label?.hasSuffix($0) == true }
            })
    }

    @Test("a view leaves the solver when it starts using constraints, and is placed by them")
    func switchingWhileInTheSolver() throws {
        let box = View(frame: Rect(x: 1, y: 1, width: 2, height: 1))
        let follower = View()
        add(box, follower)
        try follower.ndl.makeConstraints { make in
            make.left.equalTo(box.ndl.right)
            make.top.equalTo(box)
            make.size.equalTo(1)
        }
        try root.solveLayout()
        #expect(isInSolver(box))
        try box.ndl.makeConstraints { make in
            make.right.equalToSuperview().inset(1)
            make.bottom.equalToSuperview()
            make.width.equalTo(5)
            make.height.equalTo(1)
        }
        try root.solveLayout()
        #expect(!isInSolver(box))
        #expect(box.frame == Rect(x: 34, y: 9, width: 5, height: 1))
        #expect(follower.frame == Rect(x: 39, y: 9, width: 1, height: 1))
        #expect(root.layoutReport.errors.isEmpty)
    }
}
