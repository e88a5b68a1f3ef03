/// The row the simplex minimises (or the artificial row of phase one): unlike a tableau row it
/// holds a cell for every error symbol, so it is a hash map, and it keeps the set of symbols
/// whose cost is negative. Finding the entering symbol and substituting a pivot then cost what
/// the pivot touches, not the size of the objective, which keeps large layouts linear.
final class Objective {
    private(set) var constant: Double
    private var cells: [Symbol: Double] = [:]
    private var negative: Set<Symbol> = []

    init() {
        constant = 0
    }

    init(copying row: Row) {
        constant = row.constant
        for (symbol, coefficient) in zip(row.symbols, row.coefficients) { set(symbol, coefficient) }
    }

    init(copying other: Objective) {
        constant = other.constant
        cells = other.cells
        negative = other.negative
    }

    func coefficient(for symbol: Symbol) -> Double { cells[symbol] ?? 0 }

    /// The symbol to bring into the basis: the lowest id with a negative cost, as kiwi picks it.
    var enteringSymbol: Symbol? {
        negative.lazy.filter { $0.kind != .dummy }.min()
    }

    /// The symbols with a negative cost (dummies aside), for a caller that picks by its own rule.
    var negativeSymbols: some Sequence<Symbol> { negative.lazy.filter { $0.kind != .dummy } }

    /// Adds `coefficient·symbol`.
    func insert(_ symbol: Symbol, _ coefficient: Double) {
        set(symbol, (cells[symbol] ?? 0) + coefficient)
    }

    /// Adds `coefficient·row`.
    func insert(_ row: Row, _ coefficient: Double) {
        constant += row.constant * coefficient
        for (symbol, cell) in zip(row.symbols, row.coefficients) { insert(symbol, cell * coefficient) }
    }

    func remove(_ symbol: Symbol) {
        set(symbol, 0)
    }

    /// Replaces `symbol` by `row`'s expression for it.
    func substitute(_ symbol: Symbol, with row: Row) {
        guard let coefficient = cells[symbol] else { return }
        remove(symbol)
        insert(row, coefficient)
    }

    private func set(_ symbol: Symbol, _ value: Double) {
        if nearZero(value) {
            cells[symbol] = nil
            negative.remove(symbol)
        } else {
            cells[symbol] = value
            if value < 0 { negative.insert(symbol) } else { negative.remove(symbol) }
        }
    }
}
