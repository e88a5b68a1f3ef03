import ConstraintSolver

/// The engine's second job: keeping the solver's constraints and edit variables in step with
/// the tree (what is new or changed is added, what is gone removed, frame-placed views join and
/// leave), so that ``LayoutEngine/layout()`` only solves and applies frames.
extension LayoutEngine {

    /// Walks the tree, adds what is new or changed, removes what is gone; returns the views,
    /// parents first.
    func updateConstraints() -> [View] {
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

        var additions: [(constraint: LayoutConstraint, signature: Int, solverConstraint: Constraint?)] = []
        var replaced: [Constraint] = []
        var editsGone: [Variable] = []
        for view in views {
            updatePlacement(of: view, pass: pass, removing: &replaced, &editsGone)
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
                additions.append((constraint, signature, constraint.makeSolverConstraint()))
            }
        }
        for (key, entry) in installed where entry.seen != pass {
            replaced.append(entry.solverConstraint)
            installed[key] = nil
        }
        for (key, placement) in placements where placement.seen != pass {
            let left = placement.leave(solver)
            replaced += left.links
            editsGone += left.editVariables
            forget(placement, key: key)
        }
        let inUse = placementsInUse(
            by: installed.values.map(\.solverConstraint) + additions.compactMap(\.solverConstraint))
        for (key, placement) in placements where placement.isInSolver && !inUse.contains(key) {
            let left = placement.leave(solver)
            replaced += left.links
            editsGone += left.editVariables
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
        // Before the constraints that refer to them, so that those are added against real frames.
        for key in inUse {
            do { try placements[key]?.join(solver) } catch { record(error) }
        }
        for addition in additions {
            add(
                addition.constraint, addition.solverConstraint, signature: addition.signature, pass: pass,
                report: &report)
        }
        return views
    }

    /// Gives a view placed by its frame a placement under its current superview, and marks it
    /// seen; an unseen placement is removed after the walk. A view moved to another superview
    /// gets a new placement, and the old one's links and edit variables are added to the
    /// removals.
    private func updatePlacement(
        of view: View, pass: Int, removing links: inout [Constraint], _ editVariables: inout [Variable]
    ) {
        guard let parent = view.superview, view.translatesAutoresizingMaskIntoConstraints else { return }
        let key = ObjectIdentifier(view)
        if let placement = placements[key] {
            if placement.parent == ObjectIdentifier(parent) {
                placement.seen = pass
                return
            }
            let left = placement.leave(solver)
            links += left.links
            editVariables += left.editVariables
        }
        let placement = FramePlacement(view: view, parent: parent, pass: pass)
        placements[key] = placement
        for variable in placement.ownVariables.all {
            placementsByVariable[ObjectIdentifier(variable)] = placement
        }
    }

    private func forget(_ placement: FramePlacement, key: ObjectIdentifier) {
        placements[key] = nil
        for variable in placement.ownVariables.all
        where placementsByVariable[ObjectIdentifier(variable)] === placement {
            placementsByVariable[ObjectIdentifier(variable)] = nil
        }
    }

    /// The views placed by their frames that must be in the solver: those whose variables
    /// `constraints` mention, and the frame-placed superviews that their links mention in turn.
    private func placementsInUse(by constraints: [Constraint]) -> Set<ObjectIdentifier> {
        guard !placements.isEmpty else { return [] }
        var inUse: Set<ObjectIdentifier> = []
        for constraint in constraints {
            for term in constraint.expression.terms {
                guard var view = placementsByVariable[ObjectIdentifier(term.variable)]?.view else { continue }
                while inUse.insert(ObjectIdentifier(view)).inserted, let parent = view.superview,
                    placements[ObjectIdentifier(parent)] != nil
                {
                    view = parent
                }
            }
        }
        return inUse
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

    private func add(
        _ constraint: LayoutConstraint, _ solverConstraint: Constraint?, signature: Int, pass: Int,
        report: inout LayoutReport
    ) {
        guard let solverConstraint else { return }
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
