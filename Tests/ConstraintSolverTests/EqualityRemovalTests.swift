import ConstraintSolver
import Testing

/// Removing a required equality in place, as kiwi removes one by its dummy marker, although
/// Ribcage's rows carry no dummies: the tableau's journal finds the rows that depend on it.
/// Each result is checked against a solver that never had the constraint.
@Suite("Solver: removing a required equality in place")
struct EqualityRemovalTests {
    /// `x0 = 0`, each next one 10 further: a chain like views stacked under each other, with a
    /// strong wish at its end that only a removed link lets it reach.
    struct Chain {
        let variables = (0..<40).map { Variable("x\($0)") }
        var links: [Constraint] = []
        var others: [Constraint] = []

        init() {
            others.append(variables[0] == 0)
            for index in 1..<variables.count {
                links.append(variables[index] == variables[index - 1] + 10)
            }
            others.append((variables[variables.count - 1] == 1_000) | .strong)
            for (index, variable) in variables.enumerated() {
                others.append((variable >= Double(index)) | .medium)
            }
        }

        /// The values a fresh solver gives without `removed`.
        func solvedWithout(_ removed: [Constraint]) throws -> [Double] {
            let solver = Solver()
            for constraint in others + links where !removed.contains(where: { $0 === constraint }) {
                try solver.addConstraint(constraint)
            }
            solver.updateVariables()
            return variables.map(\.value)
        }
    }

    @Test("a link in the middle of a chain comes out without a rebuild, as if never added")
    func middleOfAChain() throws {
        let chain = Chain()
        let solver = Solver()
        for constraint in chain.links + chain.others { try solver.addConstraint(constraint) }
        solver.updateVariables()
        #expect(chain.variables.last?.value == 390)

        let removed = chain.links[20]
        try solver.removeConstraint(removed)
        solver.updateVariables()
        let values = chain.variables.map(\.value)
        #expect(solver.rebuildCount == 0)
        #expect(values == (try chain.solvedWithout([removed])))
        #expect(values[20] == 200 && values[21] == 820, "the chain parts where the link was")

        try solver.addConstraint(removed)
        solver.updateVariables()
        #expect(chain.variables.last?.value == 390)
    }

    @Test("removals in any order, with edits between them, match a solver without them")
    func removalsInterleavedWithEdits() throws {
        let chain = Chain()
        let solver = Solver()
        let start = chain.variables[0]
        let others = chain.others.dropFirst()  // the start is edited instead
        for constraint in chain.links + others { try solver.addConstraint(constraint) }
        try solver.addEditVariable(start, strength: Strength(level: 1_000))
        var removed: [Constraint] = []
        for (step, index) in [31, 3, 17, 38, 0, 9].enumerated() {
            try solver.suggestValue(start, Double(step * 7))
            try solver.removeConstraint(chain.links[index])
            removed.append(chain.links[index])
            solver.updateVariables()
            let ours = chain.variables.map(\.value)

            let fresh = Solver()
            for constraint in chain.links + others where !removed.contains(where: { $0 === constraint }) {
                try fresh.addConstraint(constraint)
            }
            try fresh.addEditVariable(start, strength: Strength(level: 1_000))
            try fresh.suggestValue(start, Double(step * 7))
            fresh.updateVariables()
            let theirs = chain.variables.map(\.value)
            #expect(zip(ours, theirs).allSatisfy { abs($0 - $1) < 1e-9 }, "after removing link \(index)")
        }
        #expect(solver.rebuildCount == 0)
    }

    @Test("a redundant equality still holds when the one that implied it is removed")
    func redundantEqualityIsKept() throws {
        let solver = Solver()
        let a = Variable("a")
        let b = Variable("b")
        let first = a == b
        let second = a == b
        try solver.addConstraint(b == 5)
        try solver.addConstraint(first)
        try solver.addConstraint(second)  // implied by the first: it gets no row
        try solver.addConstraint((a == 100) | .weak)

        try solver.removeConstraint(first)
        solver.updateVariables()
        #expect(a.value == 5, "the second equality still ties a to b")

        try solver.removeConstraint(second)
        solver.updateVariables()
        #expect(a.value == 100)
        #expect(solver.rebuildCount == 0)
    }

    @Test("an equality older than the journal is removed by one rebuild")
    func olderThanTheJournal() throws {
        let chain = Chain()
        let solver = Solver()
        for constraint in chain.links + chain.others { try solver.addConstraint(constraint) }
        solver.dropJournal()
        let late = (chain.variables[5] <= 1_000) | .weak
        try solver.addConstraint(late)
        try solver.removeConstraint(chain.links[20])
        solver.updateVariables()
        #expect(solver.rebuildCount == 1)
        #expect(chain.variables.map(\.value) == (try chain.solvedWithout([chain.links[20]])))
    }
}
