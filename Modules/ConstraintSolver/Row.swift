/// A symbol of the tableau: an integer id and what it stands for.
struct Symbol: Hashable, Comparable {
    enum Kind: UInt8 {
        case invalid, external, slack, error, dummy
    }

    let id: UInt32
    let kind: Kind

    static let invalid = Symbol(id: 0, kind: .invalid)

    var isPivotable: Bool { kind == .slack || kind == .error }
    var isValid: Bool { kind != .invalid }

    static func < (lhs: Symbol, rhs: Symbol) -> Bool { lhs.id < rhs.id }

    /// The id alone: it is unique, and hashing the kind too made every lookup slower.
    func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The symbol's index in the tableau's dense per-symbol arrays.
    var index: Int { Int(id) }
}

/// A row of the tableau: `basic = constant + Σ coefficient·symbol`, kept as two parallel arrays
/// sorted by symbol id. Sorted arrays are compact and fast to walk (kiwi's AssocVector), and the
/// id order is the pivot order kiwi uses, so both solvers take the same path.
final class Row {
    private(set) var constant: Double
    private(set) var symbols: [Symbol] = []
    private(set) var coefficients: [Double] = []
    /// The row's number in the tableau's ``RowJournal``; -1 until the tableau notes it.
    var serial: Int32 = -1

    init(constant: Double = 0) {
        self.constant = constant
    }

    init(copying other: Row) {
        constant = other.constant
        symbols = other.symbols
        coefficients = other.coefficients
    }

    var isEmpty: Bool { symbols.isEmpty }

    private func index(of symbol: Symbol) -> (found: Bool, index: Int) {
        var low = 0
        var high = symbols.count
        while low < high {
            let middle = (low + high) / 2
            if symbols[middle].id < symbol.id { low = middle + 1 } else { high = middle }
        }
        return (low < symbols.count && symbols[low].id == symbol.id, low)
    }

    func contains(_ symbol: Symbol) -> Bool { index(of: symbol).found }

    func coefficient(for symbol: Symbol) -> Double {
        let (found, index) = index(of: symbol)
        return found ? coefficients[index] : 0
    }

    /// Adds `value` to the constant and returns the new constant.
    @discardableResult
    func add(_ value: Double) -> Double {
        constant += value
        return constant
    }

    /// Adds `coefficient·symbol`, dropping the cell if it cancels to zero.
    func insert(_ symbol: Symbol, _ coefficient: Double = 1) {
        let (found, index) = index(of: symbol)
        if found {
            let sum = coefficients[index] + coefficient
            if nearZero(sum) {
                symbols.remove(at: index)
                coefficients.remove(at: index)
            } else {
                coefficients[index] = sum
            }
        } else if !nearZero(coefficient) {
            symbols.insert(symbol, at: index)
            coefficients.insert(coefficient, at: index)
        }
    }

    /// Adds `coefficient·other`, merging the two sorted cell lists in one linear pass (inserting
    /// cell by cell would shift the arrays once per cell, which dominated the solver's time).
    func insert(_ other: Row, _ coefficient: Double = 1) {
        var ignored = MembershipChanges(isRecording: false)
        insert(other, coefficient, changes: &ignored)
    }

    /// Adds `coefficient` times `other`, noting in `changes` the symbols this row gains and
    /// loses, so that the tableau can keep its index of the rows each symbol is in.
    func insert(_ other: Row, _ coefficient: Double, changes: inout MembershipChanges) {
        constant += other.constant * coefficient
        guard !other.symbols.isEmpty else { return }
        var mergedSymbols: [Symbol] = []
        var mergedCoefficients: [Double] = []
        mergedSymbols.reserveCapacity(symbols.count + other.symbols.count)
        mergedCoefficients.reserveCapacity(symbols.count + other.symbols.count)
        var mine = 0
        var theirs = 0
        while mine < symbols.count || theirs < other.symbols.count {
            let takeMine =
                theirs == other.symbols.count
                || (mine < symbols.count && symbols[mine].id < other.symbols[theirs].id)
            let takeTheirs =
                mine == symbols.count
                || (theirs < other.symbols.count && other.symbols[theirs].id < symbols[mine].id)
            if takeMine {
                mergedSymbols.append(symbols[mine])
                mergedCoefficients.append(coefficients[mine])
                mine += 1
            } else if takeTheirs {
                let value = other.coefficients[theirs] * coefficient
                if !nearZero(value) {
                    mergedSymbols.append(other.symbols[theirs])
                    mergedCoefficients.append(value)
                    if changes.isRecording { changes.gained.append(other.symbols[theirs]) }
                }
                theirs += 1
            } else {
                let sum = coefficients[mine] + other.coefficients[theirs] * coefficient
                if !nearZero(sum) {
                    mergedSymbols.append(symbols[mine])
                    mergedCoefficients.append(sum)
                } else if changes.isRecording {
                    changes.lost.append(symbols[mine])
                }
                mine += 1
                theirs += 1
            }
        }
        symbols = mergedSymbols
        coefficients = mergedCoefficients
    }

    func remove(_ symbol: Symbol) {
        let (found, index) = index(of: symbol)
        guard found else { return }
        symbols.remove(at: index)
        coefficients.remove(at: index)
    }

    func reverseSign() {
        constant = -constant
        for index in coefficients.indices { coefficients[index] = -coefficients[index] }
    }

    /// Makes `symbol` the subject: `symbol = …`, removing it from the cells; returns the factor
    /// the row was multiplied by.
    @discardableResult
    func solve(for symbol: Symbol) -> Double {
        let (found, index) = index(of: symbol)
        guard found else { return 1 }
        let scale = -1 / coefficients[index]
        symbols.remove(at: index)
        coefficients.remove(at: index)
        multiply(by: scale)
        return scale
    }

    /// Multiplies the constant and every coefficient by `factor`.
    func multiply(by factor: Double) {
        constant *= factor
        for index in coefficients.indices { coefficients[index] *= factor }
    }

    /// For a row whose subject is `lhs`, makes `rhs` the subject instead; returns the factor
    /// the row was multiplied by.
    @discardableResult
    func solve(for lhs: Symbol, _ rhs: Symbol) -> Double {
        insert(lhs, -1)
        return solve(for: rhs)
    }

    /// Replaces `symbol` by `row`'s expression for it.
    func substitute(_ symbol: Symbol, with row: Row) {
        var ignored = MembershipChanges(isRecording: false)
        substitute(symbol, with: row, changes: &ignored)
    }

    /// Replaces `symbol` by `row`, noting in `changes` the symbols gained and lost (`symbol`
    /// itself is not noted); returns the coefficient `row` was added with, 0 if none.
    @discardableResult
    func substitute(_ symbol: Symbol, with row: Row, changes: inout MembershipChanges) -> Double {
        let (found, index) = index(of: symbol)
        guard found else { return 0 }
        let coefficient = coefficients[index]
        symbols.remove(at: index)
        coefficients.remove(at: index)
        insert(row, coefficient, changes: &changes)
        return coefficient
    }
}

/// The symbols a row gained and lost in one operation.
struct MembershipChanges {
    let isRecording: Bool
    var gained: [Symbol] = []
    var lost: [Symbol] = []

    init(isRecording: Bool = true) {
        self.isRecording = isRecording
    }

    mutating func removeAll() {
        gained.removeAll(keepingCapacity: true)
        lost.removeAll(keepingCapacity: true)
    }
}

/// The tolerance kiwi uses for zero.
func nearZero(_ value: Double) -> Bool {
    abs(value) < 1e-8
}
