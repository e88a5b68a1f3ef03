import ConstraintSolver

/// A view that translates its frame into constraints: the frame the app asked for, and, while a
/// constraint refers to the view, the edit variables that hold that frame in the solver.
///
/// Auto Layout turns such a frame into four required equalities. Most frame-placed views (every
/// table cell and the labels in it) are referred to by no constraint at all, so here they stay
/// out of the solver: the engine copies the requested frame into the view and its
/// ``LayoutVariables`` directly, and a scroll or a resize costs the solver nothing.
///
/// When a constraint refers to the view, or to a view placed inside it by its frame, the view
/// joins the solver. The offset from the superview and the size become edit variables, tied to
/// the view by two required links that never change, and a new frame is four
/// `Solver.suggestValue(_:_:)` calls that the dual simplex repairs in place (a removed and
/// re-added equality would cost two tableau updates each). When no constraint refers to it any
/// more, it leaves again.
///
/// The edits are as strong as the root's frame (``View/rootFrameStrength``): above every
/// optional priority, so only required constraints can move the view. When they do, the engine
/// reports the frame's constraint as broken, as Auto Layout reports a broken
/// `NSAutoresizingMaskLayoutConstraint`, and the requested frame comes back once they are gone.
@MainActor
final class FramePlacement {
    /// The links and edit variables of a view in the solver.
    struct SolverEntry {
        /// The offset from the superview, then the view's own width and height.
        let editVariables: [Variable]
        /// `view.left == parent.left + x` and `view.top == parent.top + y`, both required.
        let links: [Constraint]
        /// The frame last suggested to the solver.
        var suggested: Rect?
    }

    /// Weak: a removed view may be gone before the next walk removes its placement.
    private(set) weak var view: View?
    /// The superview the frame is relative to; a move to another superview makes a new placement.
    let parent: ObjectIdentifier
    private let parentVariables: LayoutVariables
    /// The view's own variables.
    let ownVariables: LayoutVariables
    /// The frame the app asked for last. The frame the engine wrote back when required
    /// constraints moved the view is not a request: this one stays until the app sets another.
    private(set) var requested: Rect
    /// The frame the engine last left in the view: a different one means the app set a frame.
    var applied: Rect?
    /// The engine pass that last saw the view in its tree with this placement.
    var seen: Int
    /// The view's links and edit variables while a constraint refers to it; `nil` outside the
    /// solver.
    private(set) var entry: SolverEntry?

    init(view: View, parent: View, pass: Int) {
        self.view = view
        self.parent = ObjectIdentifier(parent)
        parentVariables = parent.layoutVariables
        ownVariables = view.layoutVariables
        requested = view.storedFrame
        seen = pass
    }

    var isInSolver: Bool { entry != nil }

    /// Takes the view's frame as the new request if the app set one since the last layout.
    func noteRequestedFrame() {
        guard let frame = view?.storedFrame, frame != applied else { return }
        requested = frame
    }

    // MARK: In the solver

    /// Adds the links and the edit variables, and suggests the requested frame. Links between
    /// fresh variables always hold; the solver throws only its own internal errors here.
    func join(_ solver: Solver) throws(SolverError) {
        guard entry == nil, let view else { return }
        noteRequestedFrame()
        let name = view.layoutDebugName
        let x = Variable("\(name).frame.x")
        let y = Variable("\(name).frame.y")
        let own = ownVariables
        let joined = SolverEntry(
            editVariables: [x, y, own.width, own.height],
            links: [
                Constraint(own.left - parentVariables.left - x, .equal, label: "\(name) frame x"),
                Constraint(own.top - parentVariables.top - y, .equal, label: "\(name) frame y"),
            ])
        entry = joined
        for link in joined.links { try solver.addConstraint(link) }
        for variable in joined.editVariables {
            try solver.addEditVariable(variable, strength: View.rootFrameStrength)
        }
        try suggestFrame(to: solver)
    }

    /// Forgets the links and edit variables, and returns those the solver still holds, for the
    /// engine to remove in one batch with the walk's other removals.
    func leave(_ solver: Solver) -> (links: [Constraint], editVariables: [Variable]) {
        guard let left = entry else { return ([], []) }
        entry = nil
        return (left.links.filter(solver.hasConstraint), left.editVariables.filter(solver.hasEditVariable))
    }

    /// Whether the solver lost any of the links or edit variables (a failed rebuild).
    func isIncomplete(in solver: Solver) -> Bool {
        guard let entry else { return false }
        return !entry.links.allSatisfy(solver.hasConstraint)
            || !entry.editVariables.allSatisfy(solver.hasEditVariable)
    }

    /// Suggests the requested frame, if it is not the one the solver has.
    func suggestFrame(to solver: Solver) throws(SolverError) {
        guard var current = entry, current.suggested != requested else { return }
        let values = [requested.minX, requested.minY, requested.width, requested.height]
        current.suggested = requested
        entry = current
        for (variable, value) in zip(current.editVariables, values) {
            try solver.suggestValue(variable, value)
        }
    }

    /// The links in the solver, or none outside it.
    var links: [Constraint] { entry?.links ?? [] }

    /// The edit variables with the values last suggested, for tools that solve the same system
    /// elsewhere; none outside the solver.
    var suggestedEdits: [(Variable, Double)] {
        guard let entry else { return [] }
        let frame = entry.suggested ?? .zero
        return Array(zip(entry.editVariables, [frame.minX, frame.minY, frame.width, frame.height]))
    }

    /// Which of left, top, width and height the solution moved away from the requested frame,
    /// given the solved frame in the superview's coordinates; none outside the solver.
    func attributesGivingWay(solved: Rect) -> [Int] {
        guard isInSolver else { return [] }
        let wanted = [requested.minX, requested.minY, requested.width, requested.height]
        let got = [solved.minX, solved.minY, solved.width, solved.height]
        return (0..<4).filter { abs(wanted[$0] - got[$0]) > 1e-6 }
    }

    // MARK: Outside the solver

    /// Writes the requested frame into the view's variables, in root coordinates, as the
    /// solver would: the superview's variables are already current (parents go first).
    func placeOutsideSolver() {
        let own = ownVariables
        own.left.value = parentVariables.left.value + requested.minX
        own.top.value = parentVariables.top.value + requested.minY
        own.width.value = requested.width
        own.height.value = requested.height
    }
}
