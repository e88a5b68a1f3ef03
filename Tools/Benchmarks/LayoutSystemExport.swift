import ConstraintSolver
import Foundation
import Layout

/// A constraint system as `kiwi_layout_bench.py` reads it: variables by index, each constraint
/// as `[relation, strength, constant, [variable, coefficient, …]]`, and the root's four edit
/// variables with the values suggested for them; `removal` is the index of the constraint both
/// sides remove and add again.
struct ConstraintSystem: Encodable {
    var variables = 0
    var constraints: [[Entry]] = []
    var edits: [Int] = []
    var editValues: [Double] = [0, 0, 120, 40]
    var editStrength = kiwiStrength(View.rootFrameStrength)
    var removal = 0

    /// kiwi has one weighted sum, not levels: a priority's level p becomes the weight
    /// 10^(9p/1000) (1,000 for the root's frame becomes 10⁹), far enough apart on these screens
    /// that the weighted optimum is the one the levels give.
    static func kiwiStrength(_ strength: Strength) -> Double {
        if strength.isRequired { return Strength.required.value }
        if strength.level == 0 { return strength.value }
        return pow(10, strength.level / 1_000 * 9) * strength.value
    }

    enum Entry: Encodable {
        case text(String)
        case number(Double)
        case terms([Double])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .number(let number): try container.encode(number)
            case .terms(let terms): try container.encode(terms)
            }
        }
    }

    @MainActor
    init(root: View, constraints solverConstraints: [Constraint], removal removalIndex: Int) {
        var index: [ObjectIdentifier: Int] = [:]
        func number(_ variable: Variable) -> Int {
            if let known = index[ObjectIdentifier(variable)] { return known }
            index[ObjectIdentifier(variable)] = variables
            variables += 1
            return variables - 1
        }
        edits = root.layoutVariables.all.map(number)
        removal = removalIndex
        for constraint in solverConstraints {
            let terms = constraint.expression.terms.flatMap { [Double(number($0.variable)), $0.coefficient] }
            constraints.append([
                .text("\(constraint.relation)"), .number(Self.kiwiStrength(constraint.strength)),
                .number(constraint.expression.constant), .terms(terms),
            ])
        }
    }
}

/// The engine's constraints in the order both solvers are given them, and the one both remove.
///
/// The order is a fixed shuffle. In the engine's own order (views top to bottom) kiwisolver
/// takes 19 s for the 1,000-view list, because each row's first symbol is the root's, which it
/// picks; the old benchmark listed them in a dictionary's order, and the figures come
/// from that. The removed constraint is the required equality in the middle of the engine's
/// order: a row halfway down the list.
@MainActor
func benchmarkOrder(of root: View) -> (constraints: [Constraint], removal: Int) {
    let engineOrder = root.solverConstraints
    let equalities = engineOrder.filter { $0.strength.isRequired && $0.relation == .equal }
    var generator = SplitMix64(state: 17)
    let shuffled = engineOrder.shuffled(using: &generator)
    guard !equalities.isEmpty else { return (shuffled, 0) }
    let target = equalities[equalities.count / 2]
    return (shuffled, shuffled.firstIndex { $0 === target } ?? 0)
}

/// A small seeded generator, so that every run shuffles the same way.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
