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
/// Deliberate differences from kiwi, each for a reason the tests or `bench layout` show:
/// - A required constraint refused as unsatisfiable leaves the solution as it was (kiwi leaves
///   the refused constraint's pivots in its tableau, so the solution moves although the
///   constraint was refused). The tableau is rebuilt from the kept constraints to undo them.
/// - Required equalities get no dummy marker. kiwi's dummies pile up along chains of views
///   (every `top == previous.bottom` carries every dummy before it), which makes layouts
///   quadratic; removing a required equality instead rebuilds the tableau, once for any number
///   of removals, at the next use.
/// - Where any symbol would do (the subject of a new row, the entering symbol of the artificial
///   phase, ties in the dual simplex), the one in the fewest rows is taken, not the lowest id:
///   the root's edit errors are in every row of a screen, so picking them touched the whole
///   tableau on each add. Each row's index of the rows that contain a symbol makes pivots cost
///   what they touch.
/// Results still agree with kiwisolver to 1e-6 on random systems (`KiwisolverOracleTests`).
///
/// A solver is not thread-safe: use it from one isolation domain.
public final class Solver {
    private struct Tag {
        var marker = Symbol.invalid
        var other = Symbol.invalid
    }

    private struct EditInfo {
        var variable: Variable
        var tag: Tag
        var constraint: Constraint
        var constant: Double
    }

    private var constraints: [ObjectIdentifier: (constraint: Constraint, tag: Tag, order: Int)] = [:]
    private var nextOrder = 0
    private var needsRebuild = false
    private var rows: [Symbol: Row] = [:]
    /// For each parametric symbol, the basic symbols whose rows contain it: pivots and
    /// substitutions visit those rows only, never the whole tableau.
    private var columns: [Symbol: Set<Symbol>] = [:]
    private var variables: [ObjectIdentifier: (variable: Variable, symbol: Symbol)] = [:]
    private var edits: [ObjectIdentifier: EditInfo] = [:]
    private var infeasibleRows: [Symbol] = []
    private var objective = Objective()
    private var artificial: Objective?
    private var nextID: UInt32 = 1

    /// Creates an empty solver.
    public init() {}

    // MARK: Constraints

    /// Adds `constraint`.
    ///
    /// - Throws: ``SolverError/duplicateConstraint(_:)``, or
    ///   ``SolverError/unsatisfiableConstraint(_:)`` for a required constraint that cannot hold.
    public func addConstraint(_ constraint: Constraint) throws(SolverError) {
        let key = ObjectIdentifier(constraint)
        guard constraints[key] == nil else { throw .duplicateConstraint(SolverErrorSubject(constraint)) }
        rebuildIfNeeded()
        let (row, tag) = makeRow(for: constraint)
        let subject = chooseSubject(row, tag)
        if row.isEmpty {
            // A required equality that the others already decide: redundant if it agrees.
            guard nearZero(row.constant) else {
                throw .unsatisfiableConstraint(SolverErrorSubject(constraint))
            }
        } else if !subject.isValid {
            // kiwi leaves a refused constraint's pivots in the tableau, so the solution changes
            // although the constraint was refused. Ribcage rebuilds the tableau instead.
            let added: Bool
            do { added = try addWithArtificialVariable(row) } catch { added = false }
            guard added else {
                rebuild()
                throw .unsatisfiableConstraint(SolverErrorSubject(constraint))
            }
        } else {
            row.solve(for: subject)
            substitute(subject, with: row)
            setRow(subject, row)
        }
        constraints[key] = (constraint, tag, nextOrder)
        nextOrder += 1
        try optimize(objective)
    }

    /// Removes `constraint`.
    ///
    /// - Throws: ``SolverError/unknownConstraint(_:)``.
    public func removeConstraint(_ constraint: Constraint) throws(SolverError) {
        guard constraints[ObjectIdentifier(constraint)] != nil else {
            throw .unknownConstraint(SolverErrorSubject(constraint))
        }
        guard let tag = constraints.removeValue(forKey: ObjectIdentifier(constraint))?.tag else {
            throw .unknownConstraint(SolverErrorSubject(constraint))
        }
        guard tag.marker.isValid else {
            // A required equality leaves no marker in the tableau (see makeRow); the next use of
            // the solver rebuilds it from the constraints that remain, once for many removals.
            needsRebuild = true
            return
        }
        // Take the error variables out of the objective first, or the optimum is wrong.
        if tag.marker.kind == .error { removeMarkerEffects(tag.marker, strength: constraint.strength) }
        if tag.other.kind == .error { removeMarkerEffects(tag.other, strength: constraint.strength) }
        if removeRow(tag.marker) == nil {
            guard let leaving = markerLeavingRow(tag.marker), let row = removeRow(leaving) else {
                throw .internalError("failed to find leaving row")
            }
            row.solve(for: leaving, tag.marker)
            substitute(tag.marker, with: row)
        }
        try optimize(objective)
    }

    /// Removes `constraints` and stops `editVariables` being editable, with at most one rebuild
    /// of the tableau: the constraints that left markers are taken out in place first, and the
    /// required equalities, whose removal needs a rebuild, last. Removing them one by one costs
    /// a rebuild for every marked removal that follows a required equality's.
    ///
    /// - Throws: ``SolverError/unknownConstraint(_:)`` or ``SolverError/unknownEditVariable(_:)``
    ///   before removing anything.
    public func remove(constraints removed: [Constraint], editVariables: [Variable] = []) throws(SolverError)
    {
        for variable in editVariables where edits[ObjectIdentifier(variable)] == nil {
            throw .unknownEditVariable(SolverErrorSubject(variable))
        }
        for constraint in removed where constraints[ObjectIdentifier(constraint)] == nil {
            throw .unknownConstraint(SolverErrorSubject(constraint))
        }
        var marked: [Constraint] = []
        var unmarked: [Constraint] = []
        for variable in editVariables {
            if let info = edits.removeValue(forKey: ObjectIdentifier(variable)) {
                marked.append(info.constraint)
            }
        }
        for constraint in removed {
            let hasMarker = constraints[ObjectIdentifier(constraint)]?.tag.marker.isValid ?? false
            if hasMarker { marked.append(constraint) } else { unmarked.append(constraint) }
        }
        for constraint in marked + unmarked where constraints[ObjectIdentifier(constraint)] != nil {
            try removeConstraint(constraint)
        }
    }

    /// Whether `constraint` is in the solver.
    public func hasConstraint(_ constraint: Constraint) -> Bool {
        constraints[ObjectIdentifier(constraint)] != nil
    }

    // MARK: Edit variables

    /// Makes `variable` editable with ``suggestValue(_:_:)``, at `strength` (not required).
    ///
    /// - Throws: ``SolverError/duplicateEditVariable(_:)`` or ``SolverError/badRequiredStrength(_:)``.
    public func addEditVariable(_ variable: Variable, strength: Strength) throws(SolverError) {
        let key = ObjectIdentifier(variable)
        guard edits[key] == nil else { throw .duplicateEditVariable(SolverErrorSubject(variable)) }
        let strength = strength.clipped
        guard strength < .required else { throw .badRequiredStrength(SolverErrorSubject(variable)) }
        let constraint = Constraint(
            variable.expression, .equal, strength: strength, label: "edit \(variable)")
        try addConstraint(constraint)
        guard let tag = constraints[ObjectIdentifier(constraint)]?.tag else {
            throw .internalError("edit constraint missing")
        }
        edits[key] = EditInfo(variable: variable, tag: tag, constraint: constraint, constant: 0)
    }

    /// Stops `variable` being editable.
    ///
    /// - Throws: ``SolverError/unknownEditVariable(_:)``.
    public func removeEditVariable(_ variable: Variable) throws(SolverError) {
        guard let info = edits.removeValue(forKey: ObjectIdentifier(variable)) else {
            throw .unknownEditVariable(SolverErrorSubject(variable))
        }
        try removeConstraint(info.constraint)
    }

    /// Whether `variable` is an edit variable.
    public func hasEditVariable(_ variable: Variable) -> Bool {
        edits[ObjectIdentifier(variable)] != nil
    }

    /// Suggests `value` for the edit variable `variable`, repairing the solution with the dual
    /// simplex. Call ``updateVariables()`` to read the result.
    ///
    /// - Throws: ``SolverError/unknownEditVariable(_:)``.
    public func suggestValue(_ variable: Variable, _ value: Double) throws(SolverError) {
        rebuildIfNeeded()
        let key = ObjectIdentifier(variable)
        guard var info = edits[key] else { throw .unknownEditVariable(SolverErrorSubject(variable)) }
        let delta = value - info.constant
        info.constant = value
        edits[key] = info
        defer { _ = try? dualOptimize() }

        if let row = rows[info.tag.marker] {
            if row.add(-delta) < 0 { infeasibleRows.append(info.tag.marker) }
            return
        }
        if let row = rows[info.tag.other] {
            if row.add(delta) < 0 { infeasibleRows.append(info.tag.other) }
            return
        }
        var infeasible: [Symbol] = []
        for symbol in columns[info.tag.marker] ?? [] {
            guard let row = rows[symbol] else { continue }
            let coefficient = row.coefficient(for: info.tag.marker)
            if coefficient != 0 && row.add(delta * coefficient) < 0 && symbol.kind != .external {
                infeasible.append(symbol)
            }
        }
        // kiwi finds these in symbol order; sorting the few found is cheaper than every row key.
        infeasibleRows += infeasible.sorted()
    }

    // MARK: Results

    /// Writes the solution into every variable's ``Variable/value``.
    public func updateVariables() {
        rebuildIfNeeded()
        for (variable, symbol) in variables.values {
            variable.value = rows[symbol]?.constant ?? 0
        }
    }

    /// Removes every constraint and edit variable.
    public func reset() {
        constraints.removeAll()
        rows.removeAll()
        columns.removeAll()
        variables.removeAll()
        edits.removeAll()
        infeasibleRows.removeAll()
        objective = Objective()
        artificial = nil
        nextID = 1
        nextOrder = 0
        needsRebuild = false
    }

    // MARK: The tableau

    /// Builds the tableau again from the kept constraints, in the order they were added, with
    /// the edit variables at their suggested values. Only a refused constraint pays for this:
    /// undoing the artificial phase's pivots any other way means copying the whole tableau on
    /// every add that needs that phase, which made large layouts quadratic.
    private func rebuildIfNeeded() {
        if needsRebuild { rebuild() }
    }

    private func rebuild() {
        needsRebuild = false
        let kept = constraints.values.sorted { $0.order < $1.order }.map(\.constraint)
        let savedEdits = edits.values.sorted { $0.tag.marker < $1.tag.marker }
        let known = variables.values.sorted { $0.symbol < $1.symbol }.map(\.variable)
        reset()
        // Variables no constraint mentions any more read 0, as kiwi leaves them; they are not
        // kept, so that views that come and go do not make every rebuild and update longer.
        // The others get their symbols in their old order first, so that ties break as before.
        let mentioned = Set(kept.flatMap { $0.expression.terms.map { ObjectIdentifier($0.variable) } })
        for variable in known {
            if mentioned.contains(ObjectIdentifier(variable)) {
                _ = symbol(for: variable)
            } else {
                variable.value = 0
            }
        }
        for constraint in kept {
            // These held together before, so they hold again.
            try? addConstraint(constraint)
        }
        for info in savedEdits {
            guard let tag = constraints[ObjectIdentifier(info.constraint)]?.tag else { continue }
            edits[ObjectIdentifier(info.variable)] = EditInfo(
                variable: info.variable, tag: tag, constraint: info.constraint, constant: 0)
            try? suggestValue(info.variable, info.constant)
        }
    }

    /// Makes `row` the row of `basic`, indexing its symbols.
    private func setRow(_ basic: Symbol, _ row: Row) {
        rows[basic] = row
        for symbol in row.symbols { columns[symbol, default: []].insert(basic) }
    }

    /// Takes the row of `basic` out of the tableau and the index.
    private func removeRow(_ basic: Symbol) -> Row? {
        guard let row = rows.removeValue(forKey: basic) else { return nil }
        for symbol in row.symbols { columns[symbol]?.remove(basic) }
        return row
    }

    private func makeSymbol(_ kind: Symbol.Kind) -> Symbol {
        defer { nextID += 1 }
        return Symbol(id: nextID, kind: kind)
    }

    private func symbol(for variable: Variable) -> Symbol {
        let key = ObjectIdentifier(variable)
        if let existing = variables[key] { return existing.symbol }
        let symbol = makeSymbol(.external)
        variables[key] = (variable, symbol)
        return symbol
    }

    private func makeRow(for constraint: Constraint) -> (Row, Tag) {
        let expression = constraint.expression
        let row = Row(constant: expression.constant)
        for term in expression.terms where !nearZero(term.coefficient) {
            let symbol = symbol(for: term.variable)
            if let basic = rows[symbol] {
                row.insert(basic, term.coefficient)
            } else {
                row.insert(symbol, term.coefficient)
            }
        }
        var tag = Tag()
        let strength = constraint.strength.value
        let isRequired = constraint.strength >= .required
        switch constraint.relation {
        case .lessThanOrEqual, .greaterThanOrEqual:
            let sign: Double = constraint.relation == .lessThanOrEqual ? 1 : -1
            let slack = makeSymbol(.slack)
            tag.marker = slack
            row.insert(slack, sign)
            if !isRequired {
                let error = makeSymbol(.error)
                tag.other = error
                row.insert(error, -sign)
                objective.insert(error, strength)
            }
        case .equal:
            if !isRequired {
                let plus = makeSymbol(.error)
                let minus = makeSymbol(.error)
                tag.marker = plus
                tag.other = minus
                row.insert(plus, -1)
                row.insert(minus, 1)
                objective.insert(plus, strength)
                objective.insert(minus, strength)
            }
        // kiwi gives a required equality a dummy marker, to find its row again on removal.
        // Dummies pile up along chains of views (every `top == previous.bottom` carries all
        // the dummies before it), which makes long layouts quadratic; without them, removing
        // a required equality rebuilds the tableau instead (see removeConstraint).
        }
        if row.constant < 0 { row.reverseSign() }
        return (row, tag)
    }

    private func chooseSubject(_ row: Row, _ tag: Tag) -> Symbol {
        // Any external symbol can be the subject; kiwi takes the lowest id. The one in the fewest
        // rows costs the least to substitute, which keeps a layout added view by view linear.
        if let external = row.symbols.lazy.filter({ $0.kind == .external }).min(by: cheaperToSubstitute) {
            return external
        }
        if tag.marker.isPivotable && row.coefficient(for: tag.marker) < 0 { return tag.marker }
        if tag.other.isPivotable && row.coefficient(for: tag.other) < 0 { return tag.other }
        return .invalid
    }

    private func addWithArtificialVariable(_ row: Row) throws(SolverError) -> Bool {
        let art = makeSymbol(.slack)
        setRow(art, Row(copying: row))
        artificial = Objective(copying: row)
        if let artificial { try optimize(artificial, entering: cheapestEntering) }
        let success = nearZero(artificial?.constant ?? 0)
        artificial = nil

        if let artRow = removeRow(art) {
            if artRow.isEmpty { return success }
            guard let entering = artRow.symbols.first(where: \.isPivotable) else { return false }
            artRow.solve(for: art, entering)
            substitute(entering, with: artRow)
            setRow(entering, artRow)
        }
        for basic in columns.removeValue(forKey: art) ?? [] { rows[basic]?.remove(art) }
        objective.remove(art)
        return success
    }

    private func substitute(_ symbol: Symbol, with row: Row) {
        for basic in columns.removeValue(forKey: symbol) ?? [] {
            guard let other = rows[basic] else { continue }
            other.substitute(symbol, with: row)
            for added in row.symbols {
                if other.coefficient(for: added) == 0 {
                    columns[added]?.remove(basic)
                } else {
                    columns[added, default: []].insert(basic)
                }
            }
            if basic.kind != .external && other.constant < 0 { infeasibleRows.append(basic) }
        }
        objective.substitute(symbol, with: row)
        artificial?.substitute(symbol, with: row)
    }

    /// Primal simplex on `objective` until no cost can improve.
    private func optimize(
        _ objective: Objective, entering choose: (Objective) -> Symbol? = \.enteringSymbol
    ) throws(SolverError) {
        while let entering = choose(objective) {
            guard let leaving = leavingRow(for: entering), let row = removeRow(leaving) else {
                throw .internalError("objective is unbounded")
            }
            row.solve(for: leaving, entering)
            substitute(entering, with: row)
            setRow(entering, row)
        }
    }

    /// For the artificial phase: the negative-cost symbol in the fewest rows. Any negative one
    /// makes progress; the lowest id (kiwi's rule) is usually the root's edit error, which
    /// every row of a screen contains, so each such add touched the whole tableau.
    private func cheapestEntering(_ objective: Objective) -> Symbol? {
        objective.negativeSymbols.min(by: cheaperToSubstitute)
    }

    /// Orders symbols by how many rows contain them, then by id.
    private func cheaperToSubstitute(_ a: Symbol, _ b: Symbol) -> Bool {
        let (countA, countB) = (columns[a]?.count ?? 0, columns[b]?.count ?? 0)
        return countA != countB ? countA < countB : a < b
    }

    /// The row that limits `entering` most; ties go to the lowest symbol id, as in kiwi.
    private func leavingRow(for entering: Symbol) -> Symbol? {
        var best: (symbol: Symbol, ratio: Double)?
        for symbol in columns[entering] ?? [] where symbol.kind != .external {
            guard let row = rows[symbol] else { continue }
            let coefficient = row.coefficient(for: entering)
            guard coefficient < 0 else { continue }
            let ratio = -row.constant / coefficient
            if let current = best,
                ratio > current.ratio || (ratio == current.ratio && symbol.id > current.symbol.id)
            {
                continue
            }
            best = (symbol, ratio)
        }
        return best?.symbol
    }

    /// Dual simplex: restores feasibility after edits, keeping optimality.
    private func dualOptimize() throws(SolverError) {
        while let leaving = infeasibleRows.popLast() {
            guard let row = rows[leaving], row.constant < 0 else { continue }
            var entering = Symbol.invalid
            var best = Double.greatestFiniteMagnitude
            for (symbol, coefficient) in zip(row.symbols, row.coefficients)
            where coefficient > 0 && symbol.kind != .dummy {
                let ratio = objective.coefficient(for: symbol) / coefficient
                // Ties (common: many constraints share a strength) go to the cheaper pivot.
                if ratio < best || (ratio == best && cheaperToSubstitute(symbol, entering)) {
                    best = ratio
                    entering = symbol
                }
            }
            guard entering.isValid else { throw .internalError("dual optimize failed") }
            _ = removeRow(leaving)
            row.solve(for: leaving, entering)
            substitute(entering, with: row)
            setRow(entering, row)
        }
    }

    private func removeMarkerEffects(_ marker: Symbol, strength: Strength) {
        if let row = rows[marker] {
            objective.insert(row, -strength.value)
        } else {
            objective.insert(marker, -strength.value)
        }
    }

    /// The row to pivot out when removing a constraint whose marker is not basic.
    private func markerLeavingRow(_ marker: Symbol) -> Symbol? {
        var first: (Symbol, Double)?
        var second: (Symbol, Double)?
        var third: Symbol?
        for symbol in (columns[marker] ?? []).sorted() {
            guard let row = rows[symbol] else { continue }
            let coefficient = row.coefficient(for: marker)
            if coefficient == 0 { continue }
            if symbol.kind == .external {
                third = symbol
            } else if coefficient < 0 {
                let ratio = -row.constant / coefficient
                if first == nil || ratio < first?.1 ?? 0 { first = (symbol, ratio) }
            } else {
                let ratio = row.constant / coefficient
                if second == nil || ratio < second?.1 ?? 0 { second = (symbol, ratio) }
            }
        }
        return first?.0 ?? second?.0 ?? third
    }
}
