import Layout
import LayoutDSL
import Testing

/// Issue 17's false conflicts, on views: optional constraints at any priority never move the
/// root's frame, and never make a satisfiable screen report a conflict.
@MainActor
@Suite("Views: priorities are levels, the root's frame is the screen")
struct PriorityLevelTests {
    @Test("200 rows at .high asking for width 500 stay as wide as a 200-wide screen")
    func manyHighRowsKeepTheRoot() throws {
        let root = View(frame: Rect(x: 0, y: 0, width: 200, height: 400))
        var rows: [View] = []
        for index in 0..<200 {
            let row = View()
            root.addSubview(row)
            try row.ndl.makeConstraints { make in
                make.leading.trailing.equalToSuperview()
                make.top.equalToSuperview().offset(Double(index * 2))
                make.height.equalTo(2)
                make.width.equalTo(500).priority(.high)
            }
            rows.append(row)
        }
        try root.solveLayout()
        #expect(!root.layoutReport.rootFrameGaveWay)
        #expect(rows.allSatisfy { $0.frame.width == 200 })
        #expect(root.layoutReport.gaveWay.count == 200, "each width constraint gave way")
    }

    @Test("two constraints at 999 cannot move the root; the top optional level still decides the rest")
    func twoAt999() throws {
        let root = View(frame: Rect(x: 0, y: 0, width: 80, height: 24))
        let banner = View()
        root.addSubview(banner)
        try banner.ndl.makeConstraints { make in
            make.edges.equalToSuperview()
        }
        let extra = View()
        root.addSubview(extra)
        try extra.ndl.makeConstraints { make in
            make.top.left.equalToSuperview()
            make.height.equalTo(1)
            make.width.equalTo(banner).offset(40).priority(999)
            make.width.equalTo(120).priority(999)
            make.width.equalTo(10).priority(998)
        }
        try root.solveLayout()
        #expect(root.frame == Rect(x: 0, y: 0, width: 80, height: 24))
        #expect(banner.frame.width == 80)
        #expect(extra.frame.width == 120, "two at 999 agree on 120; the one at 998 gives way")
    }

    /// A weighted sum would let enough of them outweigh any finite weight the root's frame had;
    /// the frame is a level of its own, so their number must not matter.
    @Test(
        "any number of constraints at 999 pulling the root's origin and size the same way leave it as set",
        arguments: [50, 1_000])
    func manyAt999KeepTheRoot(count: Int) throws {
        let frame = Rect(x: 0, y: 0, width: 80, height: 24)
        let root = View(frame: frame)
        let content = View()
        root.addSubview(content)
        try content.ndl.makeConstraints { make in make.edges.equalToSuperview() }
        let pulls: [(LayoutAttribute, Double)] = [(.left, 7), (.top, 3), (.width, 120), (.height, 40)]
        for _ in 0..<count {
            for (attribute, constant) in pulls {
                LayoutConstraint(
                    item: root, attribute: attribute, relatedBy: .equal, constant: constant, priority: 999
                ).isActive = true
            }
            // The same pull through the content, which required constraints tie to the root.
            try content.ndl.makeConstraints { make in make.width.equalTo(120).priority(999) }
        }
        try root.solveLayout()
        #expect(!root.layoutReport.rootFrameGaveWay)
        #expect(root.frame == frame)
        let solved = root.layoutVariables
        #expect(
            [solved.left.value, solved.top.value, solved.width.value, solved.height.value] == [0, 0, 80, 24])
        #expect(content.frame == frame)
        #expect(root.layoutReport.gaveWay.count == count * (pulls.count + 1), "every pull gave way")
    }

    @Test(
        "any number of constraints at 999 leave a frame-placed view's frame as set", arguments: [50, 1_000])
    func manyAt999KeepAPlacedFrame(count: Int) throws {
        let root = View(frame: Rect(x: 0, y: 0, width: 80, height: 24))
        let placed = View(frame: Rect(x: 2, y: 1, width: 10, height: 3))
        root.addSubview(placed)
        // Not the DSL: it would stop the view being placed by its frame.
        for _ in 0..<count {
            LayoutConstraint.activate([
                LayoutConstraint(
                    item: placed, attribute: .width, relatedBy: .equal, constant: 30, priority: 999),
                LayoutConstraint(
                    item: placed, attribute: .left, relatedBy: .equal, toItem: root, attribute: .left,
                    constant: 20, priority: 999),
            ])
        }
        try root.solveLayout()
        #expect(placed.frame == Rect(x: 2, y: 1, width: 10, height: 3))
        #expect(root.layoutReport.errors.isEmpty)
    }

    @Test("a persistent solver failure is reported as one, never as a conflict, and heals")
    func solverFailureIsReported() throws {
        let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 10))
        root.layoutIfNeeded()
        let solver = try #require(root.layoutSolver)
        let box = View()
        root.addSubview(box)
        try box.ndl.makeConstraints { make in
            make.left.top.equalToSuperview().offset(2)
            make.width.lessThanOrEqualToSuperview().offset(-30)
            make.width.equalTo(20).priority(.high)
            make.height.equalTo(3)
        }
        solver.injectFailures(intoNextPivots: 10_000)
        root.layoutIfNeeded()
        let errors = root.layoutReport.errors
        #expect(errors.contains { if case .internalSolverError = $0 { true } else { false } })
        #expect(!errors.contains { if case .unsatisfiableConstraints = $0 { true } else { false } })

        solver.injectFailures(intoNextPivots: 0)
        root.setNeedsLayout()
        try root.solveLayout()
        #expect(box.frame == Rect(x: 2, y: 2, width: 10, height: 3))
    }
}
