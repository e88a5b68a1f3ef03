/// The symbols a constraint put into the tableau, to find its row again on removal: the slack
/// or the first error symbol (`marker`), and the second error symbol (`other`).
struct ConstraintTag {
    var marker = Symbol.invalid
    var other = Symbol.invalid
    /// For a required equality, which has no marker: where its row starts in the journal.
    var equality: RowJournal.Entry?
    /// Whether the constraint was implied by the others when added, so that it has no row.
    var isRedundant = false
}

/// The simplex tableau in solved form: every basic symbol's row in terms of the parametric
/// symbols, an index of the rows each parametric symbol is in, and the objective. ``Solver``
/// turns constraints into rows; this type pivots.
///
/// Symbols are numbered densely from 1, so the rows and the index are arrays indexed by symbol
/// id, not hash maps: hashing was a third of the time of a layout from scratch and of a resize.
final class Tableau {
    /// Each symbol's row if it is basic, by symbol id.
    private var rowStorage: [Row?] = [nil]
    /// For each symbol, the rows that contain it.
    private var columns = ColumnIndex()
    /// A buffer for the symbols rows gain and lose in a substitution.
    private var changes = MembershipChanges()
    /// How rows were combined, to remove required equalities in place.
    private var journal = RowJournal()
    /// The basic symbol of each row in the tableau, by the row's serial number; invalid for
    /// rows that left it.
    private var basicBySerial: [Symbol] = []
    /// How many rows the tableau has.
    private(set) var rowCount = 0
    /// Each error symbol's weight in the objective and its level, by symbol id (weight 0 for
    /// other symbols): the objective is the sum of weight × symbol.
    private var errorWeights: [(weight: Double, level: Double)] = [(0, 0)]
    /// Each symbol's kind, by symbol id.
    private var symbolKinds: [Symbol.Kind] = [.invalid]
    let objective = Objective()
    /// The phase-one objective while a row is added through an artificial variable.
    private var artificial: Objective?
    /// Rows whose constant went negative after an edit, for the dual simplex.
    private var infeasibleRows: [Symbol] = []
    private var nextID: UInt32 = 1
    /// For tests: how many of the next pivots (a new row's included) fail as rounding would
    /// make them.
    var injectedFailures = 0

    func makeSymbol(_ kind: Symbol.Kind) -> Symbol {
        defer { nextID += 1 }
        rowStorage.append(nil)
        columns.appendSymbol()
        errorWeights.append((0, 0))
        symbolKinds.append(kind)
        return Symbol(id: nextID, kind: kind)
    }

    /// The row of `symbol` if it is basic.
    func row(of symbol: Symbol) -> Row? { rowStorage[symbol.index] }

    /// The value of `symbol` in the current solution: its row's constant, or 0 if it is
    /// parametric.
    func value(of symbol: Symbol) -> Double { rowStorage[symbol.index]?.constant ?? 0 }

    /// How many rows contain `symbol`.
    func columnCount(of symbol: Symbol) -> Int { columns.count(of: symbol) }

    /// The basic symbols whose rows contain `symbol`, each once.
    func rowsContaining(_ symbol: Symbol) -> [Symbol] { columns.rows(containing: symbol, in: rowStorage) }

    // MARK: Rows

    /// Makes `row` the row of `basic`, indexing its symbols.
    func setRow(_ basic: Symbol, _ row: Row) {
        rowStorage[basic.index] = row
        basicBySerial[Int(row.serial)] = basic
        rowCount += 1
        for symbol in row.symbols { columns.add(basic, to: symbol, rows: rowStorage) }
    }

    /// Takes the row of `basic` out of the tableau and the index.
    @discardableResult
    func removeRow(_ basic: Symbol) -> Row? {
        guard let row = rowStorage[basic.index] else { return nil }
        rowStorage[basic.index] = nil
        basicBySerial[Int(row.serial)] = .invalid
        rowCount -= 1
        for symbol in row.symbols { columns.remove(from: symbol) }
        return row
    }

    /// Replaces `symbol` by `row` in every row that has it and in the objectives.
    func substitute(_ symbol: Symbol, with row: Row) {
        let start = journal.cellCount
        for basic in rowsContaining(symbol) {
            guard let other = rowStorage[basic.index] else { continue }
            changes.removeAll()
            journal.appendCell(other.serial, other.substitute(symbol, with: row, changes: &changes))
            columns.apply(changes, to: basic, rows: rowStorage)
            if basic.kind != .external && other.constant < 0 { infeasibleRows.append(basic) }
        }
        journal.spread(row.serial, cellsFrom: start)
        columns.clear(symbol)
        objective.substitute(symbol, with: row)
        artificial?.substitute(symbol, with: row)
    }

    /// Makes `entering` basic in place of `leaving`, whose row has it.
    func pivot(entering: Symbol, leaving: Symbol) throws(SolverError) {
        try consumeInjectedFailure()
        guard let row = removeRow(leaving) else { return }
        journal.scale(row.serial, by: row.solve(for: leaving, entering))
        substitute(entering, with: row)
        setRow(entering, row)
    }

    /// Adds `row` with `subject` as its basic symbol.
    func add(_ row: Row, subject: Symbol) throws(SolverError) {
        try consumeInjectedFailure()
        journal.scale(row.serial, by: row.solve(for: subject))
        substitute(subject, with: row)
        setRow(subject, row)
        trimJournal()
    }

    // MARK: The journal

    /// Where the sources of a new row start in the journal: note each basic row substituted
    /// into it with ``noteSource(_:_:)``, then the row with ``noteNewRow(_:sourcesFrom:factor:)``.
    func beginNewRow() -> Int { journal.cellCount }

    /// Notes that `coefficient` times the basic row `source` went into the new row.
    func noteSource(_ source: Row, _ coefficient: Double) {
        journal.appendCell(source.serial, coefficient)
    }

    /// Gives a new `row` its serial number and notes that it is `factor` times the sources
    /// noted since `start`.
    func noteNewRow(_ row: Row, sourcesFrom start: Int, factor: Double) {
        row.serial = journal.makeSerial()
        basicBySerial.append(.invalid)
        journal.make(row.serial, factor: factor, cellsFrom: start)
    }

    /// Where a required equality whose new row `row` is, with `seed` the coefficient its
    /// dummy would have there, starts in the journal. Call it right after ``noteNewRow``.
    func journalEntry(for row: Row, seed: Double) -> RowJournal.Entry {
        RowJournal.Entry(step: journal.position, row: row.serial, seed: seed)
    }

    /// A copy of `row` with a serial number of its own.
    private func copy(of row: Row, times factor: Double = 1) -> Row {
        let copy = Row(copying: row)
        if factor != 1 { copy.multiply(by: factor) }
        let start = beginNewRow()
        noteSource(row, 1)
        noteNewRow(copy, sourcesFrom: start, factor: factor)
        return copy
    }

    /// Drops the journal when replaying it would cost more than a rebuild, and numbers the
    /// rows again, so that neither grows with the solver's age.
    private func trimJournal() {
        if journal.size > max(1 << 18, 32 * rowCount) { dropJournal() }
    }

    /// Forgets the journal and gives the rows in the tableau new serial numbers from 0.
    func dropJournal() {
        journal.drop()
        basicBySerial.removeAll(keepingCapacity: true)
        for (id, row) in rowStorage.enumerated() {
            guard let row else { continue }
            row.serial = journal.makeSerial()
            basicBySerial.append(Symbol(id: UInt32(id), kind: symbolKinds[id]))
        }
    }

    // MARK: The objective

    /// Takes a removed constraint's error symbol out of the objective, so that the optimum no
    /// longer counts it.
    func removeEffects(of marker: Symbol, strength: Strength) {
        errorWeights[marker.index] = (0, 0)
        let level = objective.index(of: strength.level)
        if let row = rowStorage[marker.index] {
            objective.insert(row, -strength.value, at: level)
        } else {
            objective.insert(marker, -strength.value, at: level)
        }
    }

    /// Adds `error`, a new error symbol, to the objective with `strength`'s weight on its level.
    func addError(_ error: Symbol, strength: Strength) {
        errorWeights[error.index] = (strength.value, strength.level)
        objective.insert(error, strength.value, at: objective.index(of: strength.level))
    }

    // MARK: Simplex

    /// Primal simplex on `objective` until no symbol can improve it.
    func optimize(
        _ objective: Objective, entering choose: (Objective) -> Symbol? = \.enteringSymbol
    ) throws(SolverError) {
        while let entering = choose(objective) {
            guard let leaving = leavingRow(for: entering) else {
                throw .internalError("the objective is unbounded")
            }
            try pivot(entering: entering, leaving: leaving)
        }
    }

    /// Primal simplex on the solver's objective.
    func optimize() throws(SolverError) { try optimize(objective) }

    /// What became of a row added through an artificial variable.
    enum ArtificialOutcome {
        /// The row is in the tableau.
        case added
        /// The other rows already imply it: nothing was added.
        case redundant
        /// It cannot hold; the tableau keeps the artificial phase's pivots and must be rebuilt.
        case unsatisfiable
    }

    /// Adds `row`, which has no subject that keeps the tableau feasible, through an artificial
    /// variable (phase one).
    func addWithArtificialVariable(_ row: Row) throws(SolverError) -> ArtificialOutcome {
        let art = makeSymbol(.slack)
        setRow(art, copy(of: row))
        artificial = Objective(copying: row)
        if let artificial { try optimize(artificial, entering: cheapestEntering) }
        let success = nearZero(artificial?.constant ?? 0)
        artificial = nil

        if let artRow = removeRow(art) {
            if artRow.isEmpty { return success ? .redundant : .unsatisfiable }
            guard let entering = artRow.symbols.first(where: \.isPivotable) else { return .unsatisfiable }
            journal.scale(artRow.serial, by: artRow.solve(for: art, entering))
            substitute(entering, with: artRow)
            setRow(entering, artRow)
        }
        for basic in rowsContaining(art) { rowStorage[basic.index]?.remove(art) }
        columns.clear(art)
        objective.remove(art)
        return success ? .added : .unsatisfiable
    }

    /// For the artificial phase: the improving symbol in the fewest rows. Any improving one
    /// makes progress; the lowest id (kiwi's rule) is usually the root's edit error, which
    /// every row of a screen contains, so each such add touched the whole tableau.
    private func cheapestEntering(_ objective: Objective) -> Symbol? {
        objective.improvingSymbols.min(by: cheaperToSubstitute)
    }

    /// Orders symbols by how many rows contain them, then by id.
    func cheaperToSubstitute(_ a: Symbol, _ b: Symbol) -> Bool {
        let (countA, countB) = (columnCount(of: a), columnCount(of: b))
        return countA != countB ? countA < countB : a < b
    }

    /// The row that limits `entering` most; ties go to the lowest symbol id, as in kiwi.
    private func leavingRow(for entering: Symbol) -> Symbol? {
        var best: (symbol: Symbol, ratio: Double)?
        for symbol in rowsContaining(entering) where symbol.kind != .external {
            guard let row = rowStorage[symbol.index] else { continue }
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

    /// Moves the constant of every row that has `marker` by `delta` times its coefficient, as
    /// an edit's new value does, and notes the rows that became infeasible.
    func shift(_ marker: Symbol, by delta: Double) {
        var infeasible: [Symbol] = []
        for symbol in rowsContaining(marker) {
            guard let row = rowStorage[symbol.index] else { continue }
            let coefficient = row.coefficient(for: marker)
            if coefficient != 0 && row.add(delta * coefficient) < 0 && symbol.kind != .external {
                infeasible.append(symbol)
            }
        }
        // kiwi finds these in symbol order; sorting the few found is cheaper than every row key.
        infeasibleRows += infeasible.sorted()
    }

    /// Moves the constant of `basic`'s row by `delta`; returns whether it has such a row.
    func shiftRow(_ basic: Symbol, by delta: Double) -> Bool {
        guard let row = rowStorage[basic.index] else { return false }
        if row.add(delta) < 0 { infeasibleRows.append(basic) }
        return true
    }

    /// Dual simplex: restores feasibility after edits, keeping optimality. The entering symbol
    /// is the one whose costs, divided by its coefficient, are lowest level by level.
    func dualOptimize() throws(SolverError) {
        defer {
            infeasibleRows.removeAll()
            trimJournal()
        }
        while let leaving = infeasibleRows.popLast() {
            guard let row = rowStorage[leaving.index], row.constant < 0 else { continue }
            var entering = Symbol.invalid
            var enteringCoefficient = 0.0
            for (symbol, coefficient) in zip(row.symbols, row.coefficients)
            where coefficient > 0 && symbol.kind != .dummy {
                guard entering.isValid else {
                    (entering, enteringCoefficient) = (symbol, coefficient)
                    continue
                }
                // Ties (common: many constraints share a strength) go to the cheaper pivot.
                let below = objective.ratio(symbol, coefficient, isBelow: entering, enteringCoefficient)
                if below ?? cheaperToSubstitute(symbol, entering) {
                    (entering, enteringCoefficient) = (symbol, coefficient)
                }
            }
            guard entering.isValid else { throw .internalError("the dual simplex found no entering symbol") }
            try pivot(entering: entering, leaving: leaving)
        }
    }

    private func consumeInjectedFailure() throws(SolverError) {
        guard injectedFailures > 0 else { return }
        injectedFailures -= 1
        throw .internalError("injected failure")
    }

    /// The row to pivot out when removing a constraint whose marker is not basic.
    func markerLeavingRow(_ marker: Symbol) -> Symbol? {
        var first: (Symbol, Double)?
        var second: (Symbol, Double)?
        var third: Symbol?
        for symbol in rowsContaining(marker).sorted() {
            guard let row = rowStorage[symbol.index] else { continue }
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

    /// Takes a removed constraint's marker out of the tableau: drops its row if it is basic,
    /// else pivots it in on the row `markerLeavingRow` picks and drops that.
    func removeMarker(_ marker: Symbol) throws(SolverError) {
        if removeRow(marker) != nil { return }
        guard let leaving = markerLeavingRow(marker), let row = removeRow(leaving) else {
            throw .internalError("no row to take the removed constraint's marker out of")
        }
        journal.scale(row.serial, by: row.solve(for: leaving, marker))
        substitute(marker, with: row)
    }

    // MARK: Removing a required equality

    /// Takes out the required equality that starts at `entry` in the journal, as kiwi takes
    /// out its dummy marker: the journal gives the coefficient the dummy would have in each
    /// row; the dummy enters on the row `markerLeavingRow` would pick, and that row leaves the
    /// tableau, its basic symbol becoming parametric. Only the rows that depend on the equality
    /// are touched. Returns false, touching nothing, if the journal no longer reaches back to
    /// the equality; the caller rebuilds then.
    func removeEquality(_ entry: RowJournal.Entry) throws(SolverError) -> Bool {
        guard let coefficients = journal.column(of: entry) else { return false }
        try consumeInjectedFailure()
        var column: [(basic: Symbol, coefficient: Double)] = []
        for (serial, coefficient) in coefficients.enumerated() where !nearZero(coefficient) {
            let basic = basicBySerial[serial]
            if basic.isValid { column.append((basic, coefficient)) }
        }
        // No row depends on it: the others imply it, and nothing changes.
        guard let leaving = leavingRow(amongDummyColumn: column), let leavingRow = removeRow(leaving.basic)
        else {
            return true
        }
        // The objective is Σ weight · error symbol; its dummy coefficient is the weighted sum
        // of the dummy's coefficients in the error symbols' rows, level by level.
        var levelCoefficients: [Double: Double] = [:]
        for (basic, coefficient) in column where basic.kind == .error {
            let (weight, level) = errorWeights[basic.index]
            if weight != 0 { levelCoefficients[level, default: 0] += weight * coefficient }
        }
        // dummy = (leaving - leavingRow) / coefficient
        let dummy = copy(of: leavingRow, times: -1 / leaving.coefficient)
        dummy.insert(leaving.basic, 1 / leaving.coefficient)
        let start = journal.cellCount
        for (basic, coefficient) in column where basic != leaving.basic {
            guard let row = rowStorage[basic.index] else { continue }
            changes.removeAll()
            row.insert(dummy, coefficient, changes: &changes)
            journal.appendCell(row.serial, coefficient)
            columns.apply(changes, to: basic, rows: rowStorage)
        }
        journal.spread(dummy.serial, cellsFrom: start)
        for (level, coefficient) in levelCoefficients.sorted(by: { $0.key > $1.key })
        where !nearZero(coefficient) {
            objective.insert(dummy, coefficient, at: objective.index(of: level))
        }
        return true
    }

    /// kiwi's choice of the row a marker enters on (see ``markerLeavingRow(_:)``), given the
    /// marker's column.
    private func leavingRow(
        amongDummyColumn column: [(basic: Symbol, coefficient: Double)]
    ) -> (basic: Symbol, coefficient: Double)? {
        var first: (entry: (basic: Symbol, coefficient: Double), ratio: Double)?
        var second: (entry: (basic: Symbol, coefficient: Double), ratio: Double)?
        var third: (basic: Symbol, coefficient: Double)?
        for entry in column.sorted(by: { $0.basic < $1.basic }) {
            guard let row = rowStorage[entry.basic.index] else { continue }
            if entry.basic.kind == .external {
                third = entry
            } else if entry.coefficient < 0 {
                let ratio = -row.constant / entry.coefficient
                if first == nil || ratio < first?.ratio ?? 0 { first = (entry, ratio) }
            } else {
                let ratio = row.constant / entry.coefficient
                if second == nil || ratio < second?.ratio ?? 0 { second = (entry, ratio) }
            }
        }
        return first?.entry ?? second?.entry ?? third
    }
}
