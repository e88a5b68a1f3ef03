import ConstraintSolver
import Testing

/// The solver's answers to the defects of issue 17: priorities as levels that no rounding and no
/// number of weaker constraints can cross, and failures of its own arithmetic recovered from or
/// reported, never taken for a conflict.
@Suite("Solver: priority levels, and recovery from its own failures")
struct SolverRobustnessTests {
    @Test("one constraint on a higher level beats any number on lower levels")
    func levelsAreLexicographic() async throws {
        let solver = Solver()
        let x = Variable("x")
        // As weights 10^(9p/1000), 170 constraints at 500 outweighed one at 750.
        for _ in 0..<1_000 {
            try solver.addConstraint((x == 10) | Strength(level: 500))
            // Seconds of solving in a debug build: leave the cooperative pool to the other
            // suites' tasks in between (`swift test` runs them all at once).
            await Task.yield()
        }
        try solver.addConstraint((x == 20) | Strength(level: 750))
        solver.updateVariables()
        #expect(x.value == 20)
    }

    @Test("within a level errors add up by weight, as kiwi's strengths do on level 0")
    func weightsWithinALevel() throws {
        let solver = Solver()
        let x = Variable("x")
        for _ in 0..<3 { try solver.addConstraint((x == 10) | .weak) }
        try solver.addConstraint((x == 20) | Strength.create(0, 0, 2))
        try solver.addConstraint((x == 30) | Strength(level: 500, weight: 1))
        try solver.addConstraint((x == 40) | Strength(level: 500, weight: 2))
        solver.updateVariables()
        #expect(x.value == 40, "level 500 beats level 0; within it weight 2 beats weight 1")
        #expect(Strength(level: 500) > .strong && Strength(level: 500) < .required)
        #expect(Strength(2e9).clipped == .required, "on level 0 kiwi's required value is required")
    }

    @Test("a pivot that fails while adding is recovered: the tableau is rebuilt with the constraint")
    func failedAddIsRecovered() throws {
        let solver = Solver()
        let x = Variable("x")
        try solver.addConstraint((x == 5) | .weak)
        solver.injectFailures(intoNextPivots: 1)
        let floor = x >= 10
        try solver.addConstraint(floor)
        solver.updateVariables()
        #expect(x.value == 10)
        #expect(solver.hasConstraint(floor))
        #expect(solver.rebuildCount == 1)
    }

    @Test("a failure that persists is an internal error naming the constraint, never a conflict")
    func persistentFailureIsNotAConflict() throws {
        let solver = Solver()
        let x = Variable("x")
        let nonNegative = x >= 0
        let preference = (x == 5) | .weak
        try solver.addConstraint(nonNegative)
        try solver.addConstraint(preference)
        solver.injectFailures(intoNextPivots: 1_000)
        let floor = (x >= 10).withStrength(.required)
        floor.label = "floor"
        let error = try #require(throws: SolverError.self) { try solver.addConstraint(floor) }
        guard case .internalError(let message) = error else {
            Issue.record("expected an internal error, got \(error)")
            return
        }
        #expect(message.contains("floor"))
        // Every pivot failed, so the rebuild could keep nothing; once they stop, all goes back.
        solver.injectFailures(intoNextPivots: 0)
        for constraint in [nonNegative, preference, floor] where !solver.hasConstraint(constraint) {
            try solver.addConstraint(constraint)
        }
        solver.updateVariables()
        #expect(x.value == 10)
    }

    @Test("a dual simplex that fails on an edit is recovered: the solution is the new one")
    func failedSuggestionIsRecovered() throws {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        try solver.addConstraint(x >= 0)
        try solver.addConstraint(y == x + 1)
        try solver.addEditVariable(x, strength: .strong)
        try solver.suggestValue(x, 7)
        solver.injectFailures(intoNextPivots: 1)
        try solver.suggestValue(x, -5)
        solver.updateVariables()
        #expect(x.value == 0 && y.value == 1)
        #expect(solver.rebuildCount == 1)
        try solver.suggestValue(x, 3)
        solver.updateVariables()
        #expect(x.value == 3 && y.value == 4)
    }

    @Test("removing a required equality keeps every other constraint")
    func removalKeepsTheRest() throws {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        let link = y == x + 10
        try solver.addConstraint(link)
        try solver.addConstraint((x == 3) | .medium)
        try solver.addConstraint((y == 100) | .weak)
        try solver.removeConstraint(link)
        solver.updateVariables()
        #expect(x.value == 3 && y.value == 100)
        #expect(!solver.hasConstraint(link))
    }
}
