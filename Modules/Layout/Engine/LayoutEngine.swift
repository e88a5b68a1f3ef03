import ConstraintSolver

/// Solves one view tree: the root view owns it, and it keeps its `Solver` between layouts so
/// that a change costs what it changes. A resize of the root only suggests new values for the
/// root's edit variables; the dual simplex repairs the solution without re-solving.
@MainActor
final class LayoutEngine {
    /// The root's frame is an edit at this strength: a level above every optional priority,
    /// below required, so required constraints that cannot fit still win and the report says
    /// the root gave way, but no optional constraints can.
    static let rootStrength = View.rootFrameStrength
    /// Passes of layoutSubviews-driven changes before the engine stops and keeps what it has.
    static let maximumPasses = 8

    // What is not private here is shared with LayoutEngine+Constraints.swift, which keeps the
    // solver's constraints in step with the tree; this file solves and applies frames.
    struct Installed {
        let constraint: LayoutConstraint
        let solverConstraint: Constraint
        let version: Int
        let signature: Int
        var seen: Int
        /// When the engine added it, to list the constraints in a stable order.
        let order: Int
    }

    var nextOrder = 0

    unowned let root: View
    let solver = Solver()
    var installed: [ObjectIdentifier: Installed] = [:]
    /// The views placed by their frames, by view; only those a constraint refers to are in the
    /// solver (see ``FramePlacement``).
    var placements: [ObjectIdentifier: FramePlacement] = [:]
    /// The same placements by each of their view's four variables, to find the ones a
    /// constraint's terms mention. A placement keeps its view's variables alive, so no key is
    /// reused while it is here.
    var placementsByVariable: [ObjectIdentifier: FramePlacement] = [:]
    private var suggestedRoot: Rect?
    static var passCounter = 0
    var needsConstraintUpdate = true
    private(set) var report = LayoutReport()
    /// What the last walk of the tree refused or skipped; it stands until the next walk, which
    /// tries refused constraints again.
    var constraintErrors: [LayoutError] = []
    /// The solver's internal errors since the last report.
    private var solverFailures: [LayoutError] = []
    /// Whether a solver failure may have left constraints or edit variables out of the solver.
    private var needsResync = false

    init(root: View) {
        self.root = root
        do {
            for variable in root.layoutVariables.all {
                try solver.addEditVariable(variable, strength: Self.rootStrength)
            }
        } catch {
            record(error)
        }
    }

    /// The solver constraints in the tableau: the views' constraints in the order the engine
    /// added them (parents first), then the links of the views placed by their frames that
    /// joined the solver (whose frames are edit variables).
    var solverConstraints: [Constraint] {
        installed.values.sorted { $0.order < $1.order }.map(\.solverConstraint)
            + placements.values.flatMap(\.links)
    }

    /// The edit variables with their strengths and the values last suggested: the root's frame
    /// (its left and top are 0) and the frames of views placed by them that joined the solver.
    var solverEdits: [SolverEdit] {
        let rootFrame = suggestedRoot ?? .zero
        let rootValues = [0, 0, rootFrame.width, rootFrame.height]
        return zip(root.layoutVariables.all, rootValues).map {
            SolverEdit(variable: $0, strength: Self.rootStrength, value: $1)
        }
            + placements.values.flatMap { placement in
                placement.suggestedEdits.map {
                    SolverEdit(variable: $0, strength: View.rootFrameStrength, value: $1)
                }
            }
    }

    /// Reports a failure of the solver's own (never a conflict). A rebuild of the solver's
    /// tableau that could not keep a constraint left it out: the next pass finds out what is
    /// missing and adds it again.
    func record(_ error: SolverError) {
        let failure: LayoutError = .internalSolverError(error.description)
        if !solverFailures.contains(failure) { solverFailures.append(failure) }
        LayoutLog.misuse(failure)
        needsResync = true
        needsConstraintUpdate = true
    }

    /// Forgets what the solver lost in a failed rebuild, so that this walk adds it again: the
    /// root's edit variables, frame placements in the solver and installed constraints.
    private func resyncWithSolver() {
        needsResync = false
        do {
            for variable in root.layoutVariables.all where !solver.hasEditVariable(variable) {
                try solver.addEditVariable(variable, strength: Self.rootStrength)
                suggestedRoot = nil
            }
            for placement in placements.values where placement.isIncomplete(in: solver) {
                let left = placement.leave(solver)
                try solver.remove(constraints: left.links, editVariables: left.editVariables)
            }
        } catch {
            record(error)
        }
        installed = installed.filter { solver.hasConstraint($0.value.solverConstraint) }
    }

    // MARK: A layout

    func layout() {
        var newReport = LayoutReport()
        var views: [View] = []
        for _ in 0..<Self.maximumPasses {
            if needsResync { resyncWithSolver() }
            // The root's size first: constraints added against the real size need far fewer
            // pivots than ones added against 0×0 and then resized.
            suggestRootFrame()
            if needsConstraintUpdate {
                views = updateConstraints()
            } else if views.isEmpty {
                views = collectViews()
            }
            for placement in placements.values {
                placement.noteRequestedFrame()
                do { try placement.suggestFrame(to: solver) } catch { record(error) }
            }
            solver.updateVariables()
            let resized = applyFrames(views)
            root.needsLayout = false
            updateSafeAreas(views)
            for view in views where view.needsLayout || resized.contains(ObjectIdentifier(view)) {
                view.needsLayout = false
                view.layoutSubviews()
            }
            if !needsConstraintUpdate && !root.needsLayout { break }
        }
        root.needsLayout = false
        checkRoot(&newReport)
        reportFramesGivingWay(views, into: &newReport)
        for entry in installed.values
        where entry.constraint.origin == .user && !entry.constraint.priority.isRequired
            && !Self.isSatisfied(entry.solverConstraint)
        {
            let reference = ConstraintReference(entry.constraint)
            newReport.gaveWay.append(reference)
            LayoutLog.gaveWay(reference)
        }
        newReport.errors = constraintErrors + solverFailures + newReport.errors
        solverFailures = []
        report = newReport
    }

    /// Whether the solution keeps `constraint`, to within 1e-6.
    private static func isSatisfied(_ constraint: Constraint) -> Bool {
        let value = constraint.expression.value
        switch constraint.relation {
        case .equal: return abs(value) < 1e-6
        case .lessThanOrEqual: return value < 1e-6
        case .greaterThanOrEqual: return value > -1e-6
        }
    }

    private func collectViews() -> [View] {
        var views: [View] = []
        root.visit { views.append($0) }
        return views
    }

    private func suggestRootFrame() {
        let frame = root.frame
        guard frame != suggestedRoot else { return }
        let v = root.layoutVariables
        suggestedRoot = frame
        do {
            for (variable, value) in [
                (v.left, 0.0), (v.top, 0), (v.width, frame.width), (v.height, frame.height),
            ] {
                try solver.suggestValue(variable, value)
            }
        } catch {
            record(error)
        }
    }

    /// Copies the solution into frames, parents first; returns the views whose size changed.
    /// A view placed by its frame keeps the frame it was given unless required constraints
    /// moved it; one outside the solver gets its variables' values from that frame.
    private func applyFrames(_ views: [View]) -> Set<ObjectIdentifier> {
        var resized: Set<ObjectIdentifier> = []
        for view in views where view !== root {
            if let placement = placements[ObjectIdentifier(view)] {
                let kept: Rect
                if placement.isInSolver {
                    let frame = solvedFrame(of: view)
                    kept = placement.attributesGivingWay(solved: frame).isEmpty ? placement.requested : frame
                } else {
                    placement.placeOutsideSolver()
                    kept = placement.requested
                }
                if kept.size != placement.applied?.size { resized.insert(ObjectIdentifier(view)) }
                view.storedFrame = kept
                placement.applied = kept
                continue
            }
            let frame = solvedFrame(of: view)
            if frame.size != view.storedFrame.size { resized.insert(ObjectIdentifier(view)) }
            view.storedFrame = frame
        }
        return resized
    }

    /// The solved rectangle of `view` in its superview's coordinates.
    private func solvedFrame(of view: View) -> Rect {
        let rect = view.layoutVariables.rect
        guard let parent = view.superview, parent !== root else { return rect }
        let parentVariables = parent.layoutVariables
        return rect.offsetBy(dx: -parentVariables.left.value, dy: -parentVariables.top.value)
    }

    /// Reports each frame that required constraints moved as a broken
    /// `NSAutoresizingMaskLayoutConstraint`, with the smallest set it conflicts with.
    private func reportFramesGivingWay(_ views: [View], into report: inout LayoutReport) {
        for placement in placements.values {
            guard let view = placement.view else { continue }
            let givingWay = placement.attributesGivingWay(solved: solvedFrame(of: view))
            guard let attribute = givingWay.first else { continue }
            let frameConstraints = view.makeAutoresizingConstraints(for: placement.requested)
            let broken = frameConstraints[attribute]
            guard let refused = broken.makeSolverConstraint() else { continue }
            var among = installed.values.map { ($0.constraint, $0.solverConstraint) }
            for other in placements.values where other !== placement && other.isInSolver {
                guard let otherView = other.view else { continue }
                among += otherView.makeAutoresizingConstraints(for: other.requested).compactMap {
                    constraint in
                    constraint.makeSolverConstraint().map { (constraint, $0) }
                }
            }
            let involved = ConflictExplainer.smallestConflict(for: refused, among: among)
            let failure = LayoutError.unsatisfiableConstraints(
                broken: ConstraintReference(broken),
                involved: involved.map(ConstraintReference.init) + [ConstraintReference(broken)])
            report.errors.append(failure)
            LayoutLog.misuse(failure)
        }
    }

    private func updateSafeAreas(_ views: [View]) {
        for view in views {
            guard let guide = view.safeAreaGuide else { continue }
            let insets = view.safeAreaInsets
            if insets != guide.insets { guide.updateInsets(insets) }
        }
    }

    private func checkRoot(_ report: inout LayoutReport) {
        let v = root.layoutVariables
        let frame = root.frame
        let drift = [v.left.value, v.top.value, v.width.value - frame.width, v.height.value - frame.height]
        report.rootFrameGaveWay = drift.contains { abs($0) > 1e-6 }
    }
}
