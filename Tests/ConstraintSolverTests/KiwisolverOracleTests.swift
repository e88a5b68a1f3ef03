import ConstraintSolver
import ConstraintSolverTesting
import Foundation
import Testing

/// Random constraint systems, solved by Ribcage's solver and by kiwisolver (C++ core, from PyPI),
/// must agree to 1e-6: same constraints refused as unsatisfiable, same values after every step.
@Suite("Solver agrees with kiwisolver")
struct KiwisolverOracleTests {
    struct ConstraintSpec: Codable {
        var terms: [[Double]]  // [variable index, coefficient]
        var constant: Double
        var op: String
        var strength: Double
    }

    struct EditSpec: Codable {
        var `var`: Int
        var strength: Double
    }

    struct Suggestion: Codable {
        var `var`: Int
        var value: Double
    }

    struct System: Codable {
        var variables: Int
        var constraints: [ConstraintSpec]
        var edits: [EditSpec]
        var suggestions: [Suggestion]
        var removals: [Int]
    }

    struct Outcome: Codable {
        var rejected: [Int]
        var snapshots: [[Double]]
        var error: String?
    }

    static func makeSystem(using random: inout SplitMix64) -> System {
        let count = Int.random(in: 3...12, using: &random)
        var constraints: [ConstraintSpec] = []
        // Every variable has a weak preferred value, each with its own weight, so that the
        // optimum is unique and any correct solver must find the same one.
        for index in 0..<count {
            constraints.append(
                ConstraintSpec(
                    terms: [[Double(index), 1]],
                    constant: -Double(Int.random(in: -100...100, using: &random)), op: "==",
                    strength: Strength.create(0, 0, 1, Double.random(in: 1...3, using: &random)).value))
        }
        let coefficients: [Double] = [-2, -1, -0.5, 0.5, 1, 2, 3]
        for _ in 0..<Int.random(in: count...(count * 2), using: &random) {
            let termCount = Int.random(in: 1...3, using: &random)
            let terms = (0..<termCount).map { _ in
                [
                    Double(Int.random(in: 0..<count, using: &random)),
                    coefficients.randomElement(using: &random) ?? 1,
                ]
            }
            let weight = Double.random(in: 1...3, using: &random)
            let strength: Double =
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<3: Strength.required.value
                case 3..<5: Strength.create(1, 0, 0, weight).value
                case 5..<8: Strength.create(0, 1, 0, weight).value
                default: Strength.create(0, 0, 1, weight * 2).value
                }
            constraints.append(
                ConstraintSpec(
                    terms: terms, constant: Double(Int.random(in: -200...200, using: &random)),
                    op: ["<=", "==", ">="].randomElement(using: &random) ?? "==", strength: strength))
        }
        let edited = Array(
            Set(
                (0..<Int.random(in: 1...2, using: &random)).map { _ in
                    Int.random(in: 0..<count, using: &random)
                }))
        let edits = edited.map { EditSpec(var: $0, strength: Strength.create(0, 500, 0).value) }
        let suggestions = (0..<4).map { _ in
            Suggestion(
                var: edited.randomElement(using: &random) ?? 0,
                value: Double(Int.random(in: -300...300, using: &random)))
        }
        let removals = constraints.indices.filter { _ in Int.random(in: 0..<4, using: &random) == 0 }
        return System(
            variables: count, constraints: constraints, edits: edits, suggestions: suggestions,
            removals: removals)
    }

    /// Replays `system` with Ribcage's solver, step for step as kiwi_oracle.py does.
    static func solve(_ system: System) throws -> Outcome {
        let solver = Solver()
        let variables = (0..<system.variables).map { Variable("v\($0)") }
        var constraints: [Constraint?] = []
        var rejected: [Int] = []
        for (index, spec) in system.constraints.enumerated() {
            let terms = spec.terms.map { Term(variables[Int($0[0])], $0[1]) }
            let relation: Relation =
                spec.op == "<=" ? .lessThanOrEqual : spec.op == ">=" ? .greaterThanOrEqual : .equal
            let constraint = Constraint(
                Expression(terms, constant: spec.constant), relation, strength: Strength(spec.strength))
            do {
                try solver.addConstraint(constraint)
                constraints.append(constraint)
            } catch {
                guard case .unsatisfiableConstraint = error else { throw error }
                rejected.append(index)
                constraints.append(nil)
            }
        }
        for edit in system.edits {
            try solver.addEditVariable(variables[edit.var], strength: Strength(edit.strength))
        }
        var snapshots: [[Double]] = []
        for step in system.suggestions {
            try solver.suggestValue(variables[step.var], step.value)
            solver.updateVariables()
            snapshots.append(variables.map(\.value))
        }
        for index in system.removals {
            if let constraint = constraints[index] { try solver.removeConstraint(constraint) }
        }
        solver.updateVariables()
        snapshots.append(variables.map(\.value))
        return Outcome(rejected: rejected, snapshots: snapshots, error: nil)
    }

    /// kiwisolver's outcomes for `systems`, from ConstraintSolverTesting's kiwi_oracle.py.
    static func kiwisolver(_ systems: [System]) async throws -> [Outcome] {
        let answer = try await KiwiOracle.run(JSONEncoder().encode(["systems": systems]))
        return try JSONDecoder().decode([String: [Outcome]].self, from: answer)["results"] ?? []
    }

    @Test("300 random systems: same refusals, same values to 1e-6, after edits and removals")
    func agreesWithKiwisolver() async throws {
        let seed: UInt64 = 0x5EED_2026
        var random = SplitMix64(state: seed)
        let systems = (0..<300).map { _ in Self.makeSystem(using: &random) }
        let theirs = try await Self.kiwisolver(systems)
        try #require(theirs.count == systems.count)
        var mismatches = 0
        var refusals = 0
        for (index, system) in systems.enumerated() {
            if let error = theirs[index].error {
                Issue.record("kiwisolver failed on system \(index) (seed \(seed)): \(error)")
                continue
            }
            await Task.yield()  // let other suites' tasks run between systems (see RandomScreenTests)
            let ours = try Self.solve(system)
            refusals += ours.rejected.count
            let sameRefusals = ours.rejected == theirs[index].rejected
            let sameValues =
                ours.snapshots.count == theirs[index].snapshots.count
                && zip(ours.snapshots, theirs[index].snapshots).allSatisfy { a, b in
                    a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= 1e-6 }
                }
            if !(sameRefusals && sameValues) {
                mismatches += 1
                let ourLast = ours.snapshots.last ?? []
                let theirLast = theirs[index].snapshots.last ?? []
                Issue.record(
                    "system \(index) (seed \(seed)) differs: ours \(ours.rejected) \(ourLast), kiwisolver \(theirs[index].rejected) \(theirLast)"
                )
            }
            if mismatches > 5 { break }
        }
        #expect(mismatches == 0)
        #expect(refusals > 0, "the generator must produce some unsatisfiable required constraints")
    }
}
