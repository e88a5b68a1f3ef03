/// A view that translates its frame into constraints, as the solver holds it.
///
/// Auto Layout turns such a frame into four required equalities, and changing one means
/// removing it and adding its replacement: a table cell moved by a scroll, or every cell widened
/// by a resize, would cost two tableau updates per equality. Here the offset from the
/// superview and the size are edit variables instead, tied to the view by two required links
/// that never change, and a new frame is four ``Solver/suggestValue(_:_:)`` calls that the dual
/// simplex repairs in place.
///
/// The edits are as strong as the root's frame (``View/rootFrameStrength``): above every
/// optional priority, so only required constraints can move the view. When they do, the engine
/// reports the frame's constraint as broken, as Auto Layout reports a broken
/// `NSAutoresizingMaskLayoutConstraint`.
@MainActor
final class FramePlacement {
    /// Weak: a removed view may be gone before the next walk removes its placement.
    private(set) weak var view: View?
    /// The superview the links were made against; a move to another superview makes new links.
    let parent: ObjectIdentifier
    /// The offset from the superview, then the view's own width and height.
    let editVariables: [Variable]
    /// `view.left == parent.left + x` and `view.top == parent.top + y`, both required.
    let links: [Constraint]
    /// The frame last suggested to the solver.
    private(set) var suggested: Rect?
    /// The frame the engine last left in the view: a different one means the app set a frame.
    var applied: Rect?
    /// The engine pass that last saw the view in its tree with this placement.
    var seen: Int

    init(view: View, parent: View, pass: Int) {
        self.view = view
        self.parent = ObjectIdentifier(parent)
        let name = view.layoutDebugName
        let x = Variable("\(name).frame.x")
        let y = Variable("\(name).frame.y")
        let own = view.layoutVariables
        editVariables = [x, y, own.width, own.height]
        let parentVariables = parent.layoutVariables
        links = [
            Constraint(own.left - parentVariables.left - x, .equal, label: "\(name) frame x"),
            Constraint(own.top - parentVariables.top - y, .equal, label: "\(name) frame y"),
        ]
        seen = pass
    }

    /// Adds the links and the edit variables. Links between fresh variables always hold; the
    /// solver throws only its own internal errors here.
    func install(in solver: Solver) throws(SolverError) {
        for link in links { try solver.addConstraint(link) }
        for variable in editVariables {
            try solver.addEditVariable(variable, strength: View.rootFrameStrength)
        }
    }

    /// Suggests the view's frame when the app set a new one. The frame the engine wrote back is
    /// not a request: a frame that gave way stays requested until the conflict is gone.
    func suggestFrame(to solver: Solver) throws(SolverError) {
        guard let frame = view?.storedFrame, frame != applied, frame != suggested else { return }
        let values = [frame.minX, frame.minY, frame.width, frame.height]
        suggested = frame
        for (variable, value) in zip(editVariables, values) { try solver.suggestValue(variable, value) }
    }

    /// The edit variables with the values last suggested, for tools that solve the same system
    /// elsewhere.
    var suggestedEdits: [(Variable, Double)] {
        let frame = suggested ?? .zero
        return Array(zip(editVariables, [frame.minX, frame.minY, frame.width, frame.height]))
    }

    /// Which of left, top, width and height the solution moved away from the suggested frame,
    /// given the solved frame in the superview's coordinates.
    func attributesGivingWay(solved: Rect) -> [Int] {
        guard let suggested else { return [] }
        let wanted = [suggested.minX, suggested.minY, suggested.width, suggested.height]
        let got = [solved.minX, solved.minY, solved.width, solved.height]
        return (0..<4).filter { abs(wanted[$0] - got[$0]) > 1e-6 }
    }
}
