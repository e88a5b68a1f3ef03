/// What the simplex minimises: one row of costs for each strength level, compared from the
/// highest level down (see ``Strength``). A symbol improves the objective when its first cost
/// that is not zero, reading from the highest level, is negative.
///
/// Unlike a tableau row each level holds a cell for every error symbol, so levels are hash maps,
/// and the objective keeps the set of symbols that improve it. Finding the entering symbol and
/// substituting a pivot then cost what the pivot touches, not the size of the objective, which
/// keeps large layouts linear. The artificial objective of phase one is an objective of one
/// level.
final class Objective {
    /// The levels, highest first.
    private(set) var levels: [Double] = []
    /// The costs of each level, parallel to ``levels``; a cost that rounds to zero is no cell.
    private var costs: [[Symbol: Double]] = []
    /// Each level's constant: the objective's value there.
    private var constants: [Double] = []
    /// The symbols whose first cost that is not zero is negative.
    private var improving: Set<Symbol> = []

    init() {}

    /// A one-level objective equal to `row`, for the artificial phase.
    init(copying row: Row) {
        let level = index(of: 0)
        constants[level] = row.constant
        for (symbol, coefficient) in zip(row.symbols, row.coefficients) { set(symbol, level, coefficient) }
    }

    /// The value on the highest level (the artificial objective has only one).
    var constant: Double { constants.first ?? 0 }

    /// The index of `level`, adding the level if it is new. A new level starts with no costs,
    /// so the tableau stays optimal for it.
    func index(of level: Double) -> Int {
        var position = 0
        while position < levels.count && levels[position] > level { position += 1 }
        if position < levels.count && levels[position] == level { return position }
        levels.insert(level, at: position)
        costs.insert([:], at: position)
        constants.insert(0, at: position)
        return position
    }

    /// `symbol`'s cost on the level at `index`.
    func cost(of symbol: Symbol, at index: Int) -> Double { costs[index][symbol] ?? 0 }

    /// The symbol to bring into the basis: the lowest id that improves the objective, as kiwi
    /// picks it.
    var enteringSymbol: Symbol? {
        improving.lazy.filter { $0.kind != .dummy }.min()
    }

    /// The symbols that improve the objective (dummies aside), for a caller that picks by its
    /// own rule.
    var improvingSymbols: some Sequence<Symbol> { improving.lazy.filter { $0.kind != .dummy } }

    /// Adds `coefficient·symbol` on the level at `index`.
    func insert(_ symbol: Symbol, _ coefficient: Double, at index: Int) {
        set(symbol, index, (costs[index][symbol] ?? 0) + coefficient)
    }

    /// Adds `coefficient·row` on the level at `index`.
    func insert(_ row: Row, _ coefficient: Double, at index: Int) {
        constants[index] += row.constant * coefficient
        for (symbol, cell) in zip(row.symbols, row.coefficients) {
            set(symbol, index, (costs[index][symbol] ?? 0) + cell * coefficient)
        }
    }

    /// Removes `symbol` from every level.
    func remove(_ symbol: Symbol) {
        for index in costs.indices where costs[index][symbol] != nil { set(symbol, index, 0) }
    }

    /// Replaces `symbol` by `row`'s expression for it, on every level.
    func substitute(_ symbol: Symbol, with row: Row) {
        for index in costs.indices {
            guard let coefficient = costs[index][symbol] else { continue }
            set(symbol, index, 0)
            insert(row, coefficient, at: index)
        }
    }

    /// Whether `a`'s costs divided by `aCoefficient` come before `b`'s divided by
    /// `bCoefficient`, level by level from the highest: the dual simplex's ratio test. `nil`
    /// when they are equal on every level.
    func ratio(_ a: Symbol, _ aCoefficient: Double, isBelow b: Symbol, _ bCoefficient: Double) -> Bool? {
        for level in costs {
            let ratioA = (level[a] ?? 0) / aCoefficient
            let ratioB = (level[b] ?? 0) / bCoefficient
            if ratioA != ratioB { return ratioA < ratioB }
        }
        return nil
    }

    private func set(_ symbol: Symbol, _ index: Int, _ value: Double) {
        if nearZero(value) {
            guard costs[index].removeValue(forKey: symbol) != nil else { return }
        } else {
            costs[index][symbol] = value
        }
        // The sign that counts is the one on the highest level where the symbol has a cost.
        for level in costs {
            if let cost = level[symbol] {
                if cost < 0 { improving.insert(symbol) } else { improving.remove(symbol) }
                return
            }
        }
        improving.remove(symbol)
    }
}
