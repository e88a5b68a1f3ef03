/// How the tableau's rows were made and combined, so that a required equality, which puts no
/// symbol of its own into the rows, can be found again and taken out when it is removed.
///
/// kiwi gives every required equality a dummy symbol, and the dummy rides along in every row
/// the equality's row is substituted into. Along a chain of views (`top == previous.bottom`)
/// each row then carries the dummies of all the rows above it, and a layout costs quadratic
/// time. Ribcage's rows carry no dummies. Instead the tableau notes each step that would have
/// moved one: a new row made from basic rows, a row scaled, a row substituted into others.
/// Replaying those steps from the equality's own row gives the coefficients its dummy would
/// have in every row now, which is all the removal needs (see ``Tableau/removeEquality(_:)``).
///
/// A replay costs one step for each step taken since the equality was added, plus the work of
/// the steps that touched rows depending on it. The journal is dropped when it grows far past
/// the tableau's size, and the rows are numbered again; equalities added before that are
/// removed by rebuilding the tableau.
struct RowJournal {
    /// Where a required equality's row starts in the journal.
    struct Entry {
        /// The first step after the row was made.
        var step: Int
        /// The row's serial number.
        var row: Int32
        /// The coefficient of the equality's dummy in its new row: 1, or -1 if the row was
        /// negated to make its constant positive.
        var seed: Double
    }

    private enum Step {
        /// A new row, made of `factor · coefficient · source` over the cells (the basic rows
        /// of the symbols in its constraint, or the row it copies).
        case make(row: Int32, factor: Double, cells: Range<Int>)
        /// A row multiplied by `factor` (solved for a symbol, or negated).
        case scale(row: Int32, factor: Double)
        /// `source` added `coefficient` times to each row of the cells (a substitution).
        case spread(source: Int32, cells: Range<Int>)
    }

    private var steps: [Step] = []
    private var cells: [(row: Int32, coefficient: Double)] = []
    /// The absolute number of the first step kept: steps before it were dropped.
    private var firstStep = 0
    /// How many rows have been given a serial number.
    private(set) var rowCount: Int32 = 0

    /// The absolute number of the next step.
    var position: Int { firstStep + steps.count }

    /// A serial number for a new row.
    mutating func makeSerial() -> Int32 {
        defer { rowCount += 1 }
        return rowCount
    }

    /// Where the cells of the next step start.
    var cellCount: Int { cells.count }

    /// Adds a cell to the next step: a source row and its coefficient, or a target row and the
    /// coefficient the source is added with.
    mutating func appendCell(_ row: Int32, _ coefficient: Double) {
        cells.append((row, coefficient))
    }

    /// Notes that `row` was made as `factor` times the sum of the cells since `start`.
    mutating func make(_ row: Int32, factor: Double, cellsFrom start: Int) {
        steps.append(.make(row: row, factor: factor, cells: start..<cells.count))
    }

    mutating func scale(_ row: Int32, by factor: Double) {
        steps.append(.scale(row: row, factor: factor))
    }

    /// Notes that `source` was added to the rows of the cells since `start`, each times its
    /// coefficient (a substitution).
    mutating func spread(_ source: Int32, cellsFrom start: Int) {
        guard start < cells.count else { return }
        steps.append(.spread(source: source, cells: start..<cells.count))
    }

    /// How much the journal holds: its steps and their cells.
    var size: Int { steps.count + cells.count }

    /// Forgets every step and every serial number: equalities added before can no longer be
    /// replayed, and the tableau numbers its rows again from 0.
    mutating func drop() {
        // One past the last step, so that an entry made just before, with no step after it,
        // is not taken for one made after.
        firstStep = position + 1
        steps.removeAll()
        cells.removeAll()
        rowCount = 0
    }

    /// The coefficient the dummy of the equality at `entry` would have in each row now, by
    /// serial number; nil if the steps since it was added were dropped.
    func column(of entry: Entry) -> [Double]? {
        guard entry.step >= firstStep else { return nil }
        var column = [Double](repeating: 0, count: Int(rowCount))
        column[Int(entry.row)] = entry.seed
        for step in steps[(entry.step - firstStep)...] {
            switch step {
            case .make(let row, let factor, let range):
                var sum = 0.0
                for cell in cells[range] { sum += cell.coefficient * column[Int(cell.row)] }
                column[Int(row)] = factor * sum
            case .scale(let row, let factor):
                column[Int(row)] *= factor
            case .spread(let source, let range):
                let value = column[Int(source)]
                guard value != 0 else { continue }
                for cell in cells[range] { column[Int(cell.row)] += cell.coefficient * value }
            }
        }
        return column
    }
}
