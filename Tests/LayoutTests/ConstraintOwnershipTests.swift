import Layout
import LayoutDSL
import Testing

/// What a constraint keeps alive: no view at all. A view owns its active constraints, and
/// neither an `ndl` constraint nor a layout constraint owns a view back, as in SnapKit and UIKit.
/// (A subview constrained to its superview used to keep the superview, so a sheet's view kept its
/// window and every controller on it; and a layout constraint kept the view holding it, so every
/// view with a constraint kept itself.)
@MainActor
@Suite("Constraints hold their views weakly")
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

    @Test("a view with only constant constraints is freed once nothing else holds it")
    func viewWithConstantConstraintsIsFreed() throws {
        weak var weakView: View?
        var kept: LayoutConstraint?
        do {
            let view = View(frame: Rect(x: 0, y: 0, width: 40, height: 10))
            try view.ndl.makeConstraints { make in
                make.height.equalTo(3)
                make.width.greaterThanOrEqualTo(5).priority(750)
            }
            let width = LayoutConstraint(
                item: view, attribute: .width, relatedBy: .lessThanOrEqual, constant: 12)
            width.isActive = true
            try view.solveLayout()
            #expect(width.isActive)
            kept = width
            weakView = view
        }
        #expect(weakView == nil)
        // A constraint whose holding view is gone is inactive, and can't be activated again.
        #expect(kept?.isActive == false)
        kept?.isActive = true
        #expect(kept?.isActive == false)
    }

    @Test("a removed subview with constant constraints is freed, and its superview lays out without it")
    func removedSubviewWithConstantConstraintsIsFreed() throws {
        let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 10))
        let stays = View()
        root.addSubview(stays)
        try stays.ndl.makeConstraints { make in
            make.top.left.equalToSuperview()
            make.size.equalTo(Size(width: 6, height: 2))
        }
        weak var weakLeaving: View?
        do {
            let leaving = View()
            root.addSubview(leaving)
            try leaving.ndl.makeConstraints { make in
                make.top.equalTo(stays.ndl.bottom)
                make.left.equalToSuperview()
                make.height.equalTo(3)
                make.width.equalTo(8)
            }
            try root.solveLayout()
            #expect(leaving.frame == Rect(x: 0, y: 2, width: 8, height: 3))
            leaving.removeFromSuperview()
            weakLeaving = leaving
        }
        #expect(weakLeaving == nil)
        try root.solveLayout()
        #expect(stays.frame == Rect(x: 0, y: 0, width: 6, height: 2))
    }
}
