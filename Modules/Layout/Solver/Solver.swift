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
/// One deliberate difference from kiwi: a required constraint refused as unsatisfiable leaves
/// the solver exactly as it was (kiwi leaves the refused constraint's pivots in its tableau, so
/// the solution moves although the constraint was refused).
///
/// A solver is not thread-safe: use it from one isolation domain.
public final class Solver {
    private struct Tag {
        var marker = Symbol.invalid
        var other = Symbol.invalid
    }

    private struct EditInfo {
        var tag: Tag
        var constraint: Constraint
        var constant: Double
    }

    private var constraints: [ObjectIdentifier: (constraint: Constraint, tag: Tag)] = [:]
    private var rows: [Symbol: Row] = [:]
    private var variables: [ObjectIdentifier: (variable: Variable, symbol: Symbol)] = [:]
    private var edits: [ObjectIdentifier: EditInfo] = [:]
    private var infeasibleRows: [Symbol] = []
    private var objective = Row()
    private var artificial: Row?
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
        let (row, tag) = makeRow(for: constraint)
        var subject = chooseSubject(row, tag)
        if !subject.isValid && row.symbols.allSatisfy({ $0.kind == .dummy }) {
            guard nearZero(row.constant) else {
                throw .unsatisfiableConstraint(SolverErrorSubject(constraint))
            }
            subject = tag.marker
        }
        if !subject.isValid {
            // kiwi leaves a refused constraint's pivots in the tableau, so the solution changes
            // although the constraint was refused. Ribcage restores the tableau instead.
            let saved = snapshot()
            guard try addWithArtificialVariable(row) else {
                restore(saved)
                throw .unsatisfiableConstraint(SolverErrorSubject(constraint))
            }
        } else {
            row.solve(for: subject)
            substitute(subject, with: row)
            rows[subject] = row
        }
        constraints[key] = (constraint, tag)
        try optimize(objective)
    }

    /// Removes `constraint`.
    ///
    /// - Throws: ``SolverError/unknownConstraint(_:)``.
    public func removeConstraint(_ constraint: Constraint) throws(SolverError) {
        guard let (_, tag) = constraints.removeValue(forKey: ObjectIdentifier(constraint)) else {
            throw .unknownConstraint(SolverErrorSubject(constraint))
        }
        // Take the error variables out of the objective first, or the optimum is wrong.
        if tag.marker.kind == .error { removeMarkerEffects(tag.marker, strength: constraint.strength) }
        if tag.other.kind == .error { removeMarkerEffects(tag.other, strength: constraint.strength) }
        if rows.removeValue(forKey: tag.marker) == nil {
            guard let leaving = markerLeavingRow(tag.marker), let row = rows.removeValue(forKey: leaving)
            else {
                throw .internalError("failed to find leaving row")
            }
            row.solve(for: leaving, tag.marker)
            substitute(tag.marker, with: row)
        }
        try optimize(objective)
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
        edits[key] = EditInfo(tag: tag, constraint: constraint, constant: 0)
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
        for (symbol, row) in rows {
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
        for (variable, symbol) in variables.values {
            variable.value = rows[symbol]?.constant ?? 0
        }
    }

    /// Removes every constraint and edit variable.
    public func reset() {
        constraints.removeAll()
        rows.removeAll()
        variables.removeAll()
        edits.removeAll()
        infeasibleRows.removeAll()
        objective = Row()
        artificial = nil
        nextID = 1
    }

    // MARK: The tableau

    private struct Snapshot {
        var rows: [Symbol: Row]
        var objective: Row
        var infeasibleRows: [Symbol]
    }

    private func snapshot() -> Snapshot {
        Snapshot(
            rows: rows.mapValues { Row(copying: $0) }, objective: Row(copying: objective),
            infeasibleRows: infeasibleRows)
    }

    private func restore(_ snapshot: Snapshot) {
        rows = snapshot.rows
        objective = snapshot.objective
        infeasibleRows = snapshot.infeasibleRows
        artificial = nil
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
            } else {
                let dummy = makeSymbol(.dummy)
                tag.marker = dummy
                row.insert(dummy)
            }
        }
        if row.constant < 0 { row.reverseSign() }
        return (row, tag)
    }

    private func chooseSubject(_ row: Row, _ tag: Tag) -> Symbol {
        if let external = row.symbols.first(where: { $0.kind == .external }) { return external }
        if tag.marker.isPivotable && row.coefficient(for: tag.marker) < 0 { return tag.marker }
        if tag.other.isPivotable && row.coefficient(for: tag.other) < 0 { return tag.other }
        return .invalid
    }

    private func addWithArtificialVariable(_ row: Row) throws(SolverError) -> Bool {
        let art = makeSymbol(.slack)
        rows[art] = Row(copying: row)
        artificial = Row(copying: row)
        if let artificial { try optimize(artificial) }
        let success = nearZero(artificial?.constant ?? 0)
        artificial = nil

        if let artRow = rows.removeValue(forKey: art) {
            if artRow.isEmpty { return success }
            guard let entering = artRow.symbols.first(where: \.isPivotable) else { return false }
            artRow.solve(for: art, entering)
            substitute(entering, with: artRow)
            rows[entering] = artRow
        }
        for row in rows.values { row.remove(art) }
        objective.remove(art)
        return success
    }

    private func substitute(_ symbol: Symbol, with row: Row) {
        for (basic, other) in rows {
            other.substitute(symbol, with: row)
            if basic.kind != .external && other.constant < 0 { infeasibleRows.append(basic) }
        }
        objective.substitute(symbol, with: row)
        artificial?.substitute(symbol, with: row)
    }

    /// Primal simplex on `objective` until no cost can improve.
    private func optimize(_ objective: Row) throws(SolverError) {
        while true {
            guard
                let index = objective.symbols.indices.first(where: {
                    objective.symbols[$0].kind != .dummy && objective.coefficients[$0] < 0
                })
            else { return }
            let entering = objective.symbols[index]
            guard let leaving = leavingRow(for: entering), let row = rows.removeValue(forKey: leaving) else {
                throw .internalError("objective is unbounded")
            }
            row.solve(for: leaving, entering)
            substitute(entering, with: row)
            rows[entering] = row
        }
    }

    /// The row that limits `entering` most; ties go to the lowest symbol id, as in kiwi.
    private func leavingRow(for entering: Symbol) -> Symbol? {
        var best: (symbol: Symbol, ratio: Double)?
        for (symbol, row) in rows where symbol.kind != .external {
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
                if ratio < best {
                    best = ratio
                    entering = symbol
                }
            }
            guard entering.isValid else { throw .internalError("dual optimize failed") }
            rows.removeValue(forKey: leaving)
            row.solve(for: leaving, entering)
            substitute(entering, with: row)
            rows[entering] = row
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
        for symbol in rows.keys.sorted() {
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
