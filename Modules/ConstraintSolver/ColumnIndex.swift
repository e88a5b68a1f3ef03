/// For each symbol, the basic symbols whose rows contain it, by symbol id: pivots and
/// substitutions visit those rows only, never the whole tableau.
///
/// Entries are not removed when a row loses a symbol, only skipped and dropped when the column
/// is next read (see ``rows(containing:in:)``), which keeps a substitution free of searches.
/// The count of each column is kept exact from what each row gains and loses.
struct ColumnIndex {
    private var entries: [[Symbol]] = [[]]
    private var counts: [Int32] = [0]
    /// Marks of the rows already visited while reading a column, by symbol id.
    private var visitMarks: [UInt32] = [0]
    private var visitMark: UInt32 = 0

    /// Makes room for the next symbol.
    mutating func appendSymbol() {
        entries.append([])
        counts.append(0)
        visitMarks.append(0)
    }

    /// How many rows contain `symbol`.
    func count(of symbol: Symbol) -> Int { Int(counts[symbol.index]) }

    /// Notes that `basic`'s row, one of `rows`, now contains `symbol`. A column that rows keep
    /// leaving and joining without being read is compacted once it is mostly stale, so it stays
    /// in proportion to the rows it indexes.
    mutating func add(_ basic: Symbol, to symbol: Symbol, rows: [Row?]) {
        let column = symbol.index
        entries[column].append(basic)
        counts[column] += 1
        if entries[column].count > 2 * Int(counts[column]) + 32 {
            _ = self.rows(containing: symbol, in: rows)
        }
    }

    /// Notes that a row no longer contains `symbol`.
    mutating func remove(from symbol: Symbol) {
        counts[symbol.index] -= 1
    }

    /// Notes what `basic`'s row gained and lost.
    mutating func apply(_ changes: MembershipChanges, to basic: Symbol, rows: [Row?]) {
        for gained in changes.gained { add(basic, to: gained, rows: rows) }
        for lost in changes.lost { counts[lost.index] -= 1 }
    }

    /// Empties the column of `symbol`, which no row contains any more.
    mutating func clear(_ symbol: Symbol) {
        entries[symbol.index].removeAll()
        counts[symbol.index] = 0
    }

    /// The basic symbols whose rows (in `rows`, by symbol id) contain `symbol`, each once.
    /// Drops the column's stale entries on the way, so reading a column costs what was added
    /// to it since it was last read.
    mutating func rows(containing symbol: Symbol, in rows: [Row?]) -> [Symbol] {
        let column = symbol.index
        guard !entries[column].isEmpty else { return [] }
        visitMark &+= 1
        if visitMark == 0 {
            for index in visitMarks.indices { visitMarks[index] = 0 }
            visitMark = 1
        }
        var kept: [Symbol] = []
        kept.reserveCapacity(Int(counts[column]))
        for basic in entries[column] where visitMarks[basic.index] != visitMark {
            guard let row = rows[basic.index], row.contains(symbol) else { continue }
            visitMarks[basic.index] = visitMark
            kept.append(basic)
        }
        entries[column] = kept
        return kept
    }
}
