/// An incremental Cassowary solver with kiwi's API and behaviour.
///
/// ```swift
/// let solver = Solver()
/// let left = Variable("left"), width = Variable("width")
/// try solver.addConstraint(left >= 0)
/// try solver.addConstraint(width == 100 | .strong)
/// try solver.addEditVariable(left, strength: .strong)
/// try solver.suggestValue(left, 20)
/// solver.updateVariables()            // left.value == 20, width.value == 100
/// ```
///
/// Each constraint becomes a row of a simplex tableau; primal simplex restores optimality after
/// every add and remove, and `suggestValue` moves row constants and repairs feasibility with the
/// dual simplex, so an edit never re-solves from scratch.
///
/// Constraints that are not required are minimised level by level (see ``Strength``): kiwi's
/// strengths share level 0 and solve as in kiwi; the layout engine gives every priority a level
/// of its own, so that no rounding and no number of lower-priority constraints can outweigh a
/// higher one.
///
/// Deliberate differences from kiwi, each for a reason the tests or `bench layout` show:
/// - A required constraint refused as unsatisfiable leaves the solution as it was (kiwi leaves
///   the refused constraint's pivots in its tableau, so the solution moves although the
///   constraint was refused). The tableau is rebuilt from the kept constraints to undo them.
/// - Required equalities get no dummy marker. kiwi's dummies pile up along chains of views
///   (every `top == previous.bottom` carries every dummy before it), which makes layouts
///   quadratic. The tableau keeps a journal of how its rows were combined instead, and
///   removing a required equality replays it from the equality's row to find the column its
///   dummy would have had, then takes it out as kiwi takes out a dummy (see `RowJournal`).
/// - Where any symbol would do (the subject of a new row, the entering symbol of the artificial
///   phase, ties in the dual simplex), the one in the fewest rows is taken, not the lowest id:
///   the root's edit errors are in every row of a screen, so picking them touched the whole
///   tableau on each add. Each row's index of the rows that contain a symbol makes pivots cost
///   what they touch.
/// - If rounding ever breaks the tableau (kiwi's "internal solver error"), the solver builds it
///   again from its constraints and edits and goes on; the operation fails with
///   ``SolverError/internalError(_:)`` only if a constraint cannot be restored, and then names
///   it. kiwi stays broken for every later operation.
///
/// Results still agree with kiwisolver to 1e-6 on random systems (`KiwisolverOracleTests`).
///
/// A solver is not thread-safe: use it from one isolation domain.
public final class Solver {
    private struct EditInfo {
        var variable: Variable
        var constraint: Constraint
        /// The value last suggested.
        var constant: Double
    }

    private var tableau = Tableau()
    private var constraints: [ObjectIdentifier: (constraint: Constraint, tag: ConstraintTag, order: Int)] =
        [:]
    private var nextOrder = 0
    private var variables: [ObjectIdentifier: (variable: Variable, symbol: Symbol)] = [:]
    /// The same variables in the order of their symbols, to walk without hashing.
    private var variableList: [(variable: Variable, symbol: Symbol)] = []
    private var edits: [ObjectIdentifier: EditInfo] = [:]
    /// The constraints the others implied when they were added, which have no row: removing
    /// another constraint may leave them unimplied, so they are placed again after it.
    private var redundantConstraints: Set<ObjectIdentifier> = []
    /// Whether a refused constraint left the artificial phase's pivots in the tableau.
    private var tableauIsDirty = false
    /// How many times the tableau was built again from the constraints, for tests.
    package private(set) var rebuildCount = 0

    /// For tests: makes the next `count` pivots (a new row's included) fail as rounding would make
    /// them fail, including those of the rebuilds that follow, to check that every failure is
    /// recovered from or reported.
    package func injectFailures(intoNextPivots count: Int) {
        tableau.injectedFailures = count
    }

    /// For tests: forgets how the tableau's rows were combined, as the solver does when that
    /// record grows far past the tableau, so that the next removal of a required equality
    /// added before rebuilds the tableau.
    package func dropJournal() {
        tableau.dropJournal()
    }

    /// Creates an empty solver.
    public init() {}

    // MARK: Constraints

    /// Adds `constraint`.
    ///
    /// - Throws: ``SolverError/duplicateConstraint(_:)``;
    ///   ``SolverError/unsatisfiableConstraint(_:)`` for a required constraint that cannot hold,
    ///   leaving the solution as it was; ``SolverError/internalError(_:)`` only if rounding broke
    ///   the tableau and rebuilding it could not keep every constraint (it names them).
    public func addConstraint(_ constraint: Constraint) throws(SolverError) {
        let key = ObjectIdentifier(constraint)
        guard constraints[key] == nil else { throw .duplicateConstraint(SolverErrorSubject(constraint)) }
        do {
            try insert(constraint)
        } catch {
            switch error {
            case .unsatisfiableConstraint:
                // kiwi leaves a refused constraint's pivots in the tableau, so the solution
                // changes although the constraint was refused. Ribcage rebuilds it instead.
                if tableauIsDirty { try rebuild() }
                throw error
            case .internalError:
                // Rounding, not the constraint: solve again from scratch, with it.
                if constraints[key] == nil { register(constraint, tag: ConstraintTag()) }
                try rebuild()
            default:
                throw error
            }
        }
    }

    /// Removes `constraint`.
    ///
    /// - Throws: ``SolverError/unknownConstraint(_:)``, or ``SolverError/internalError(_:)`` if
    ///   the tableau had to be rebuilt and could not keep every other constraint.
    public func removeConstraint(_ constraint: Constraint) throws(SolverError) {
        try remove(constraints: [constraint])
    }

    /// Removes `constraints` and stops `editVariables` being editable. Each is taken out of the
    /// tableau in place, touching only the rows that depend on it: by its marker symbol, or for
    /// a required equality by the tableau's journal (see `RowJournal`). The tableau is
    /// rebuilt, once for all of them, only if the journal no longer reaches back to a removed
    /// equality or rounding breaks the tableau.
    ///
    /// - Throws: ``SolverError/unknownConstraint(_:)`` or ``SolverError/unknownEditVariable(_:)``
    ///   before removing anything; ``SolverError/internalError(_:)`` as ``removeConstraint(_:)``.
    public func remove(constraints removed: [Constraint], editVariables: [Variable] = []) throws(SolverError)
    {
        for variable in editVariables where edits[ObjectIdentifier(variable)] == nil {
            throw .unknownEditVariable(SolverErrorSubject(variable))
        }
        for constraint in removed where constraints[ObjectIdentifier(constraint)] == nil {
            throw .unknownConstraint(SolverErrorSubject(constraint))
        }
        var all = removed
        for variable in editVariables {
            if let info = edits.removeValue(forKey: ObjectIdentifier(variable)) {
                all.append(info.constraint)
            }
        }
        let entries = all.compactMap { constraints.removeValue(forKey: ObjectIdentifier($0)) }
        if tableauIsDirty { return try rebuild() }
        do {
            for entry in entries {
                if redundantConstraints.remove(ObjectIdentifier(entry.constraint)) != nil { continue }
                if let equality = entry.tag.equality {
                    // The journal may no longer reach back to an old equality: rebuild then.
                    guard try tableau.removeEquality(equality) else { return try rebuild() }
                    try tableau.optimize()
                } else {
                    try removeFromTableau(entry.constraint, tag: entry.tag)
                }
            }
            if !entries.isEmpty { try placeRedundantConstraintsAgain() }
        } catch {
            try rebuild()
        }
    }

    /// Places the constraints that were redundant again, after a removal that may have left
    /// them unimplied; those still implied stay without a row.
    private func placeRedundantConstraintsAgain() throws(SolverError) {
        guard !redundantConstraints.isEmpty else { return }
        let waiting = redundantConstraints.compactMap { constraints[$0] }.sorted { $0.order < $1.order }
        redundantConstraints.removeAll()
        for entry in waiting {
            let tag = try place(entry.constraint)
            constraints[ObjectIdentifier(entry.constraint)] = (entry.constraint, tag, entry.order)
            if tag.isRedundant { redundantConstraints.insert(ObjectIdentifier(entry.constraint)) }
            try tableau.optimize()
        }
    }

    /// Whether `constraint` is in the solver.
    public func hasConstraint(_ constraint: Constraint) -> Bool {
        constraints[ObjectIdentifier(constraint)] != nil
    }

    // MARK: Edit variables

    /// Makes `variable` editable with ``suggestValue(_:_:)``, at `strength` (not required).
    ///
    /// - Throws: ``SolverError/duplicateEditVariable(_:)`` or
    ///   ``SolverError/badRequiredStrength(_:)``.
    public func addEditVariable(_ variable: Variable, strength: Strength) throws(SolverError) {
        let key = ObjectIdentifier(variable)
        guard edits[key] == nil else { throw .duplicateEditVariable(SolverErrorSubject(variable)) }
        let strength = strength.clipped
        guard !strength.isRequired else { throw .badRequiredStrength(SolverErrorSubject(variable)) }
        let constraint = Constraint(
            variable.expression, .equal, strength: strength, label: "edit \(variable)")
        try addConstraint(constraint)
        edits[key] = EditInfo(variable: variable, constraint: constraint, constant: 0)
    }

    /// Stops `variable` being editable.
    ///
    /// - Throws: ``SolverError/unknownEditVariable(_:)``.
    public func removeEditVariable(_ variable: Variable) throws(SolverError) {
        try remove(constraints: [], editVariables: [variable])
    }

    /// Whether `variable` was added as an edit variable and not removed since: whether
    /// ``suggestValue(_:_:)`` takes it.
    public func hasEditVariable(_ variable: Variable) -> Bool {
        edits[ObjectIdentifier(variable)] != nil
    }

    /// Suggests `value` for the edit variable `variable`, repairing the solution with the dual
    /// simplex. Call ``updateVariables()`` to read the result.
    ///
    /// - Throws: ``SolverError/unknownEditVariable(_:)``; ``SolverError/internalError(_:)`` only
    ///   if the dual simplex failed and rebuilding the tableau could not keep every constraint.
    public func suggestValue(_ variable: Variable, _ value: Double) throws(SolverError) {
        let key = ObjectIdentifier(variable)
        guard var info = edits[key], let tag = constraints[ObjectIdentifier(info.constraint)]?.tag else {
            throw .unknownEditVariable(SolverErrorSubject(variable))
        }
        let delta = value - info.constant
        info.constant = value
        edits[key] = info
        if tableauIsDirty { return try rebuild() }
        if !tableau.shiftRow(tag.marker, by: -delta) && !tableau.shiftRow(tag.other, by: delta) {
            tableau.shift(tag.marker, by: delta)
        }
        do {
            try tableau.dualOptimize()
        } catch {
            // Rounding: solve again from scratch, with the edits at their new values.
            try rebuild()
        }
    }

    // MARK: Results

    /// Writes the solution into every variable's ``Variable/value``.
    public func updateVariables() {
        for (variable, symbol) in variableList {
            variable.value = tableau.value(of: symbol)
        }
    }

    /// Removes every constraint and edit variable.
    public func reset() {
        let injectedFailures = tableau.injectedFailures
        tableau = Tableau()
        tableau.injectedFailures = injectedFailures
        constraints.removeAll()
        variables.removeAll()
        variableList.removeAll()
        redundantConstraints.removeAll()
        edits.removeAll()
        nextOrder = 0
        tableauIsDirty = false
    }

    // MARK: Adding a constraint to the tableau

    private func register(_ constraint: Constraint, tag: ConstraintTag) {
        constraints[ObjectIdentifier(constraint)] = (constraint, tag, nextOrder)
        if tag.isRedundant { redundantConstraints.insert(ObjectIdentifier(constraint)) }
        nextOrder += 1
    }

    /// Adds `constraint`'s row and optimizes; on a refusal the tableau may keep the artificial
    /// phase's pivots (``tableauIsDirty``).
    private func insert(_ constraint: Constraint) throws(SolverError) {
        register(constraint, tag: try place(constraint))
        try tableau.optimize()
    }

    /// Adds `constraint`'s row to the tableau, without optimizing; returns its tag.
    private func place(_ constraint: Constraint) throws(SolverError) -> ConstraintTag {
        var (row, tag) = makeRow(for: constraint)
        let subject = chooseSubject(row, tag)
        if row.isEmpty {
            // A required equality that the others already decide: redundant if it agrees.
            guard nearZero(row.constant) else {
                throw .unsatisfiableConstraint(SolverErrorSubject(constraint))
            }
            tag.isRedundant = true
        } else if !subject.isValid {
            let outcome: Tableau.ArtificialOutcome
            do {
                outcome = try tableau.addWithArtificialVariable(row)
            } catch {
                tableauIsDirty = true
                throw error
            }
            switch outcome {
            case .added: break
            case .redundant: tag.isRedundant = true
            case .unsatisfiable:
                tableauIsDirty = true
                throw .unsatisfiableConstraint(SolverErrorSubject(constraint))
            }
        } else {
            try tableau.add(row, subject: subject)
        }
        return tag
    }

    private func symbol(for variable: Variable) -> Symbol {
        let key = ObjectIdentifier(variable)
        if let existing = variables[key] { return existing.symbol }
        let symbol = tableau.makeSymbol(.external)
        variables[key] = (variable, symbol)
        variableList.append((variable, symbol))
        return symbol
    }

    /// The row of `constraint` over the current parametric symbols, with its slack and error
    /// symbols, and their costs added to the objective. An edit constraint's row includes the
    /// value last suggested.
    private func makeRow(for constraint: Constraint) -> (Row, ConstraintTag) {
        let expression = constraint.expression
        let row = Row(constant: expression.constant - (editValue(of: constraint) ?? 0))
        let sources = tableau.beginNewRow()
        for term in expression.terms where !nearZero(term.coefficient) {
            let symbol = symbol(for: term.variable)
            if let basic = tableau.row(of: symbol) {
                row.insert(basic, term.coefficient)
                tableau.noteSource(basic, term.coefficient)
            } else {
                row.insert(symbol, term.coefficient)
            }
        }
        var tag = ConstraintTag()
        let strength = constraint.strength
        switch constraint.relation {
        case .lessThanOrEqual, .greaterThanOrEqual:
            let sign: Double = constraint.relation == .lessThanOrEqual ? 1 : -1
            let slack = tableau.makeSymbol(.slack)
            tag.marker = slack
            row.insert(slack, sign)
            if !strength.isRequired {
                let error = tableau.makeSymbol(.error)
                tag.other = error
                row.insert(error, -sign)
                tableau.addError(error, strength: strength)
            }
        case .equal:
            if !strength.isRequired {
                let plus = tableau.makeSymbol(.error)
                let minus = tableau.makeSymbol(.error)
                tag.marker = plus
                tag.other = minus
                row.insert(plus, -1)
                row.insert(minus, 1)
                tableau.addError(plus, strength: strength)
                tableau.addError(minus, strength: strength)
            }
        // kiwi gives a required equality a dummy marker, to find its row again on removal.
        // Dummies pile up along chains of views (every `top == previous.bottom` carries all
        // the dummies before it), which makes long layouts quadratic; the tableau's journal
        // finds the row instead (see RowJournal).
        }
        let sign: Double = row.constant < 0 ? -1 : 1
        if sign < 0 { row.reverseSign() }
        tableau.noteNewRow(row, sourcesFrom: sources, factor: sign)
        if strength.isRequired && constraint.relation == .equal {
            tag.equality = tableau.journalEntry(for: row, seed: sign)
        }
        return (row, tag)
    }

    /// The value suggested for the edit variable whose constraint this is, if it is one.
    private func editValue(of constraint: Constraint) -> Double? {
        guard constraint.expression.terms.count == 1,
            let variable = constraint.expression.terms.first?.variable,
            let info = edits[ObjectIdentifier(variable)], info.constraint === constraint
        else { return nil }
        return info.constant
    }

    private func chooseSubject(_ row: Row, _ tag: ConstraintTag) -> Symbol {
        // Any external symbol can be the subject; kiwi takes the lowest id. The one in the fewest
        // rows costs the least to substitute, which keeps a layout added view by view linear.
        if let external = row.symbols.lazy.filter({ $0.kind == .external }).min(
            by: tableau.cheaperToSubstitute)
        {
            return external
        }
        if tag.marker.isPivotable && row.coefficient(for: tag.marker) < 0 { return tag.marker }
        if tag.other.isPivotable && row.coefficient(for: tag.other) < 0 { return tag.other }
        return .invalid
    }

    /// Takes a constraint that left markers out of the tableau in place, and re-optimizes.
    private func removeFromTableau(_ constraint: Constraint, tag: ConstraintTag) throws(SolverError) {
        // Take the error symbols out of the objective first, or the optimum is wrong.
        if tag.marker.kind == .error { tableau.removeEffects(of: tag.marker, strength: constraint.strength) }
        if tag.other.kind == .error { tableau.removeEffects(of: tag.other, strength: constraint.strength) }
        try tableau.removeMarker(tag.marker)
        try tableau.optimize()
    }

    // MARK: Rebuilding

    /// Builds the tableau again from the kept constraints, in the order they were added, with
    /// the edit variables at their suggested values. A removed required equality, a refused
    /// constraint and a broken tableau pay for this: undoing the artificial phase's pivots any
    /// other way means copying the whole tableau on every add that needs that phase, which made
    /// large layouts quadratic.
    ///
    /// - Throws: ``SolverError/internalError(_:)`` naming the constraints that could not be
    ///   added again (they are left out), or ``SolverError/unsatisfiableConstraint(_:)`` when
    ///   the only one left out is required and refused: it never held with the others.
    private func rebuild() throws(SolverError) {
        rebuildCount += 1
        var kept = constraints.values.sorted { $0.order < $1.order }.map(\.constraint)
        let savedEdits = edits
        let known = variableList.map(\.variable)
        var leftOut: [(Constraint, SolverError)] = []
        while true {
            reset()
            // Edits first, so that their constraints' rows carry the suggested values.
            edits = savedEdits
            // Variables no constraint mentions any more read 0, as kiwi leaves them; they are
            // not kept, so that views that come and go do not make every rebuild and update
            // longer. The others get their symbols in their old order, so that ties break as
            // before.
            let mentioned = Set(kept.flatMap { $0.expression.terms.map { ObjectIdentifier($0.variable) } })
            for variable in known {
                if mentioned.contains(ObjectIdentifier(variable)) {
                    _ = symbol(for: variable)
                } else {
                    variable.value = 0
                }
            }
            var failure: (index: Int, error: SolverError)?
            for (index, constraint) in kept.enumerated() {
                do {
                    try insert(constraint)
                } catch {
                    failure = (index, error)
                    break
                }
            }
            guard let failure else { break }
            leftOut.append((kept[failure.index], failure.error))
            kept.remove(at: failure.index)
        }
        edits = edits.filter { constraints[ObjectIdentifier($0.value.constraint)] != nil }
        guard !leftOut.isEmpty else { return }
        if leftOut.count == 1, case .unsatisfiableConstraint = leftOut[0].1 { throw leftOut[0].1 }
        throw .internalError(
            "rebuilding the tableau left out " + leftOut.map { "\($0.0) (\($0.1))" }.joined(separator: ", "))
    }
}
