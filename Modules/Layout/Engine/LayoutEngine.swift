/// Solves one view tree: the root view owns it, and it keeps its ``Solver`` between layouts so
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

    private struct Installed {
        let constraint: LayoutConstraint
        let solverConstraint: Constraint
        let version: Int
        let signature: Int
        var seen: Int
        /// When the engine added it, to list the constraints in a stable order.
        let order: Int
    }

    private var nextOrder = 0

    private unowned let root: View
    let solver = Solver()
    private var installed: [ObjectIdentifier: Installed] = [:]
    /// The views placed by their frames, by view.
    private var placements: [ObjectIdentifier: FramePlacement] = [:]
    private var suggestedRoot: Rect?
    private static var passCounter = 0
    var needsConstraintUpdate = true
    private(set) var report = LayoutReport()
    /// What the last walk of the tree refused or skipped; it stands until the next walk, which
    /// tries refused constraints again.
    private var constraintErrors: [LayoutError] = []
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
    /// added them (parents first), then the links of the views placed by their frames (whose
    /// frames are edit variables).
    var solverConstraints: [Constraint] {
        installed.values.sorted { $0.order < $1.order }.map(\.solverConstraint)
            + placements.values.flatMap(\.links)
    }

    /// The edit variables with their strengths and the values last suggested: the root's frame
    /// (its left and top are 0) and the frames of views placed by them.
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
    private func record(_ error: SolverError) {
        let failure: LayoutError = .internalSolverError(error.description)
        if !solverFailures.contains(failure) { solverFailures.append(failure) }
        LayoutLog.misuse(failure)
        needsResync = true
        needsConstraintUpdate = true
    }

    /// Forgets what the solver lost in a failed rebuild, so that this walk adds it again: the
    /// root's edit variables, frame placements and installed constraints.
    private func resyncWithSolver() {
        needsResync = false
        do {
            for variable in root.layoutVariables.all where !solver.hasEditVariable(variable) {
                try solver.addEditVariable(variable, strength: Self.rootStrength)
                suggestedRoot = nil
            }
            for (key, placement) in placements
            where !placement.links.allSatisfy(solver.hasConstraint)
                || !placement.editVariables.allSatisfy(solver.hasEditVariable)
            {
                placements[key] = nil
                try solver.remove(
                    constraints: placement.links.filter(solver.hasConstraint),
                    editVariables: placement.editVariables.filter(solver.hasEditVariable))
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
    /// moved it.
    private func applyFrames(_ views: [View]) -> Set<ObjectIdentifier> {
        var resized: Set<ObjectIdentifier> = []
        for view in views where view !== root {
            let frame = solvedFrame(of: view)
            if let placement = placements[ObjectIdentifier(view)] {
                let givingWay = !placement.attributesGivingWay(solved: frame).isEmpty
                let kept = givingWay ? frame : placement.suggested ?? frame
                if kept.size != placement.applied?.size { resized.insert(ObjectIdentifier(view)) }
                view.storedFrame = kept
                placement.applied = kept
                continue
            }
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
            guard let attribute = givingWay.first, let suggested = placement.suggested else { continue }
            let frameConstraints = view.makeAutoresizingConstraints(for: suggested)
            let broken = frameConstraints[attribute]
            guard let refused = broken.makeSolverConstraint() else { continue }
            var among = installed.values.map { ($0.constraint, $0.solverConstraint) }
            for other in placements.values where other !== placement {
                guard let frame = other.suggested, let otherView = other.view else { continue }
                among += otherView.makeAutoresizingConstraints(for: frame).compactMap { constraint in
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

    // MARK: Keeping the solver's constraints in step with the tree

    /// Walks the tree, adds what is new or changed, removes what is gone; returns the views,
    /// parents first.
    private func updateConstraints() -> [View] {
        needsConstraintUpdate = false
        var report = LayoutReport()
        defer { constraintErrors = report.errors }
        Self.passCounter &+= 1
        let pass = Self.passCounter
        var views: [View] = []
        func walk(_ view: View, inherited: LayoutDirection) {
            let direction = view.ownDirection ?? inherited
            view.resolvedDirection = direction
            view.passToken = pass
            views.append(view)
            for subview in view.subviews { walk(subview, inherited: direction) }
        }
        walk(root, inherited: View.defaultLayoutDirection)

        var additions: [(LayoutConstraint, Int)] = []
        var replaced: [Constraint] = []
        for view in views {
            updatePlacement(of: view, pass: pass)
            let held = view.heldConstraints.values.sorted { $0.activationOrder < $1.activationOrder }
            for constraint in view.engineConstraints() + held {
                guard inTree(constraint, pass: pass, report: &report) else { continue }
                let key = ObjectIdentifier(constraint)
                let signature = constraint.layoutSignature()
                if var existing = installed[key] {
                    if existing.version == constraint.version && existing.signature == signature {
                        existing.seen = pass
                        installed[key] = existing
                        continue
                    }
                    replaced.append(existing.solverConstraint)
                    installed[key] = nil
                }
                additions.append((constraint, signature))
            }
        }
        for (key, entry) in installed where entry.seen != pass {
            replaced.append(entry.solverConstraint)
            installed[key] = nil
        }
        var editsGone: [Variable] = []
        for (key, placement) in placements where placement.seen != pass {
            editsGone += placement.editVariables
            replaced += placement.links
            placements[key] = nil
        }
        // In one call, so that a solver failure rebuilds the tableau once for all of them.
        do {
            // After a solver failure some may be gone already; the rest must still go.
            try solver.remove(
                constraints: replaced.filter(solver.hasConstraint),
                editVariables: editsGone.filter(solver.hasEditVariable))
        } catch {
            record(error)
        }
        for (constraint, signature) in additions {
            add(constraint, signature: signature, pass: pass, report: &report)
        }
        return views
    }

    /// Gives a view placed by its frame a placement under its current superview, and marks it
    /// seen; an unseen placement is removed after the walk.
    private func updatePlacement(of view: View, pass: Int) {
        guard let parent = view.superview, view.translatesAutoresizingMaskIntoConstraints else { return }
        let key = ObjectIdentifier(view)
        if let placement = placements[key], placement.parent == ObjectIdentifier(parent) {
            placement.seen = pass
            return
        }
        do {
            if let moved = placements[key] {
                placements[key] = nil
                try solver.remove(
                    constraints: moved.links.filter(solver.hasConstraint),
                    editVariables: moved.editVariables.filter(solver.hasEditVariable))
            }
            let placement = FramePlacement(view: view, parent: parent, pass: pass)
            placements[key] = placement
            try placement.install(in: solver)
        } catch {
            record(error)
        }
    }

    private func inTree(_ constraint: LayoutConstraint, pass: Int, report: inout LayoutReport) -> Bool {
        guard let first = constraint.firstItem?.owningView, first.passToken == pass else { return false }
        guard constraint.secondAttribute != nil else { return true }
        guard let second = constraint.secondItem?.owningView, second.passToken == pass else {
            let error = LayoutError.noCommonAncestor(
                first: constraint.firstItem?.layoutDebugName ?? "nil",
                second: constraint.secondItem?.layoutDebugName ?? "nil")
            if !report.errors.contains(error) {
                report.errors.append(error)
                LayoutLog.misuse(error)
            }
            return false
        }
        return true
    }

    private func add(_ constraint: LayoutConstraint, signature: Int, pass: Int, report: inout LayoutReport) {
        guard let solverConstraint = constraint.makeSolverConstraint() else { return }
        guard solverConstraint.expression.constant.isFinite,
            solverConstraint.expression.terms.allSatisfy({ $0.coefficient.isFinite })
        else {
            report.errors.append(.notFinite(what: constraint.description))
            return
        }
        do {
            try solver.addConstraint(solverConstraint)
            installed[ObjectIdentifier(constraint)] = Installed(
                constraint: constraint, solverConstraint: solverConstraint, version: constraint.version,
                signature: signature, seen: pass, order: nextOrder)
            nextOrder += 1
        } catch {
            guard case .unsatisfiableConstraint = error else { return record(error) }
            // Left out, as Auto Layout breaks a constraint; it stays out until something changes.
            let involved = ConflictExplainer.smallestConflict(
                for: solverConstraint, among: installed.values.map { ($0.constraint, $0.solverConstraint) })
            let failure = LayoutError.unsatisfiableConstraints(
                broken: ConstraintReference(constraint),
                involved: involved.map(ConstraintReference.init) + [ConstraintReference(constraint)])
            report.errors.append(failure)
            LayoutLog.misuse(failure)
        }
    }
}
