import Layout
import Testing

/// What an `ndl` constraint keeps alive: neither its view nor the view it relates to, as
/// SnapKit's constraints hold theirs weakly. (A subview constrained to its superview used to keep
/// the superview, and so a sheet's view kept its window and every controller on it.)
@MainActor
@Suite("ndl: constraints hold their views weakly")
struct ConstraintOwnershipTests {
    @Test("a superview is freed once nothing else holds it, whatever its subviews' ndl constraints relate")
    func viewsAreFreed() throws {
        weak var weakRoot: View?
        var kept: NDLConstraint?
        do {
            let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 10))
            let child = View()
            let sibling = View()
            root.addSubview(child)
            root.addSubview(sibling)
            try child.ndl.makeConstraints { make in
                make.center.equalToSuperview()
                make.width.lessThanOrEqualToSuperview().offset(-4)
                make.height.equalTo(3).priority(750)
            }
            try sibling.ndl.makeConstraints { make in
                kept = make.top.equalTo(child.ndl.bottom).offset(1).constraint
                make.left.right.equalToSuperview()
            }
            try root.solveLayout()
            #expect(sibling.frame.minY == child.frame.maxY + 1)
            weakRoot = root
        }
        #expect(weakRoot == nil)
        // A constraint kept past its views can still be updated; it relates nothing any more.
        kept?.update(offset: 3)
    }

    @Test("a view moved out of its superview does not keep the superview alive through its constraints")
    func removedViewDoesNotKeepItsOldSuperview() throws {
        weak var weakRoot: View?
        let child = View()
        do {
            let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 10))
            root.addSubview(child)
            try child.ndl.makeConstraints { make in make.edges.equalToSuperview().inset(1) }
            try root.solveLayout()
            child.removeFromSuperview()
            weakRoot = root
        }
        #expect(weakRoot == nil)
        #expect(child.superview == nil)
    }
}
