import ConstraintSolver
import Testing

@Suite("Solver: kiwi's semantics")
struct SolverTests {
    @Test("solves required equalities and inequalities")
    func basics() throws {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        try solver.addConstraint(x + y == 20)
        try solver.addConstraint(x - y == 4)
        solver.updateVariables()
        #expect(x.value == 12)
        #expect(y.value == 8)
    }

    @Test("removing a batch takes edits, marked and required constraints out at once, or nothing")
    func batchRemoval() throws {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        let link = y == x + 10
        let floor = x >= 5
        let preference = (x == 100) | .weak
        for constraint in [link, floor, preference] { try solver.addConstraint(constraint) }
        try solver.addEditVariable(x, strength: .strong)
        try solver.suggestValue(x, 1)
        solver.updateVariables()
        #expect(x.value == 5 && y.value == 15)

        let stranger = x <= 1_000
        #expect(throws: SolverError.self) {
            try solver.remove(constraints: [link, stranger], editVariables: [x])
        }
        #expect(solver.hasConstraint(link) && solver.hasEditVariable(x), "a refused batch removes nothing")

        try solver.remove(constraints: [link, floor], editVariables: [x])
        #expect(!solver.hasConstraint(link) && !solver.hasConstraint(floor) && !solver.hasEditVariable(x))
        #expect(solver.hasConstraint(preference))
        solver.updateVariables()
        #expect(x.value == 100)
        try solver.addConstraint(y == x * 2)
        solver.updateVariables()
        #expect(y.value == 200)
    }

    @Test("a stronger constraint beats a weaker one; weak ones give way")
    func strengths() throws {
        let solver = Solver()
        let x = Variable("x")
        try solver.addConstraint((x == 10) | .weak)
        try solver.addConstraint((x == 20) | .medium)
        solver.updateVariables()
        #expect(x.value == 20)
        let strong = (x == 30) | .strong
        try solver.addConstraint(strong)
        solver.updateVariables()
        #expect(x.value == 30)
        try solver.removeConstraint(strong)
        solver.updateVariables()
        #expect(x.value == 20)
    }

    @Test("composes strengths as kiwi: create(a, b, c, w)")
    func strengthValues() {
        #expect(Strength.required.value == 1_001_001_000)
        #expect(Strength.strong.value == 1_000_000)
        #expect(Strength.medium.value == 1_000)
        #expect(Strength.weak.value == 1)
        #expect(Strength.create(1, 2, 3).value == 1_002_003)
        #expect(Strength.create(0, 0, 1, 5).value == 5)
        #expect(Strength.create(2_000, 0, 0).value == 1_000_000_000, "each part clamps to 1,000")
    }

    @Test("a violated non-required constraint gives way to a required one")
    func violated() throws {
        let solver = Solver()
        let x = Variable("x")
        try solver.addConstraint(x <= 5)
        try solver.addConstraint((x >= 10) | .strong)
        solver.updateVariables()
        #expect(x.value == 5)
    }

    @Test("refuses an unsatisfiable required constraint, naming it, and keeps the solution")
    func unsatisfiable() throws {
        let solver = Solver()
        let x = Variable("x")
        try solver.addConstraint(x >= 10)
        let conflicting = Constraint(x - 5, .lessThanOrEqual, label: "max")
        let error = try #require(throws: SolverError.self) { try solver.addConstraint(conflicting) }
        guard case .unsatisfiableConstraint(let subject) = error else {
            Issue.record("expected unsatisfiable, got \(error)")
            return
        }
        #expect(subject.refers(to: conflicting))
        #expect(error.description == "Unable to satisfy the required constraint max: x - 5 <= 0 | required.")
        #expect(!solver.hasConstraint(conflicting))
        solver.updateVariables()
        #expect(x.value == 10)
    }

    @Test("reports duplicate and unknown constraints by identity")
    func managingConstraints() throws {
        let solver = Solver()
        let x = Variable("x")
        let first = x >= 1
        let twin = x >= 1  // equal in every way but identity: a different constraint
        try solver.addConstraint(first)
        try solver.addConstraint(twin)
        #expect(solver.hasConstraint(first) && solver.hasConstraint(twin))
        #expect(throws: SolverError.self) { try solver.addConstraint(first) }
        try solver.removeConstraint(first)
        #expect(!solver.hasConstraint(first))
        let error = try #require(throws: SolverError.self) { try solver.removeConstraint(first) }
        guard case .unknownConstraint(let subject) = error else {
            Issue.record("expected unknownConstraint, got \(error)")
            return
        }
        #expect(subject.refers(to: first))
    }

    @Test("edit variables: add, suggest, remove, and every error")
    func editVariables() throws {
        let solver = Solver()
        let left = Variable("left")
        let width = Variable("width")
        let right = Variable("right")
        try solver.addConstraint(right == left + width)
        try solver.addConstraint((width == 100) | .strong)
        try solver.addConstraint(left >= 0)
        try solver.addEditVariable(left, strength: .medium)
        #expect(solver.hasEditVariable(left))
        try solver.suggestValue(left, 20)
        solver.updateVariables()
        #expect((left.value, width.value, right.value) == (20, 100, 120))
        try solver.suggestValue(left, -50)  // the required left >= 0 wins
        solver.updateVariables()
        #expect(left.value == 0)
        #expect(right.value == 100)

        #expect(throws: SolverError.self) { try solver.addEditVariable(left, strength: .strong) }
        #expect(throws: SolverError.self) { try solver.addEditVariable(width, strength: .required) }
        #expect(throws: SolverError.self) { try solver.suggestValue(width, 1) }
        try solver.removeEditVariable(left)
        #expect(!solver.hasEditVariable(left))
        #expect(throws: SolverError.self) { try solver.removeEditVariable(left) }
    }

    @Test("an under-constrained system settles at the solver's choice without failing")
    func underConstrained() throws {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        try solver.addConstraint(x + y >= 10)
        solver.updateVariables()
        #expect(x.value + y.value >= 10 - 1e-9)
    }

    @Test("reset forgets everything")
    func reset() throws {
        let solver = Solver()
        let x = Variable("x")
        let constraint = x == 3
        try solver.addConstraint(constraint)
        solver.reset()
        #expect(!solver.hasConstraint(constraint))
        try solver.addConstraint(x == 4)
        solver.updateVariables()
        #expect(x.value == 4)
    }

    @Test("expressions reduce and print readably")
    func expressions() {
        let x = Variable("x")
        let y = Variable("y")
        let expression = (2 * x + y - x - 10).reduced()
        #expect(expression.description == "x + y - 10")
        #expect(((x >= 2 * y + 1) | .strong).description == "x - 2 * y - 1 >= 0 | strong")
    }
}
