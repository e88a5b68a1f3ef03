import ConstraintSolver

/// Finds which required constraints a refused one conflicts with, for the report: a smallest
/// set that cannot hold together with it (a deletion filter over scratch solvers).
@MainActor
enum ConflictExplainer {
    /// Past this many candidates the explanation lists the candidates unfiltered: filtering
    /// costs a solve per candidate.
    static let filterLimit = 200

    static func smallestConflict(
        for refused: Constraint, among installed: [(LayoutConstraint, Constraint)]
    ) -> [LayoutConstraint] {
        var candidates = connected(to: refused, among: installed.filter { $0.1.strength == .required })
        guard candidates.count <= filterLimit else { return candidates.map(\.0) }
        var index = 0
        while index < candidates.count {
            var without = candidates
            without.remove(at: index)
            if isUnsatisfiable(without.map(\.1) + [refused]) {
                candidates = without
            } else {
                index += 1
            }
        }
        return candidates.map(\.0)
    }

    /// The required constraints that share variables with `refused`, directly or through others.
    private static func connected(
        to refused: Constraint, among required: [(LayoutConstraint, Constraint)]
    ) -> [(LayoutConstraint, Constraint)] {
        var byVariable: [ObjectIdentifier: [Int]] = [:]
        for (index, entry) in required.enumerated() {
            for term in entry.1.expression.terms {
                byVariable[ObjectIdentifier(term.variable), default: []].append(index)
            }
        }
        var reached = Set<Int>()
        var queue = refused.expression.terms.map { ObjectIdentifier($0.variable) }
        var seenVariables = Set(queue)
        while let variable = queue.popLast() {
            for index in byVariable[variable] ?? [] where reached.insert(index).inserted {
                for term in required[index].1.expression.terms
                where seenVariables.insert(ObjectIdentifier(term.variable)).inserted {
                    queue.append(ObjectIdentifier(term.variable))
                }
            }
        }
        return reached.sorted().map { required[$0] }
    }

    private static func isUnsatisfiable(_ constraints: [Constraint]) -> Bool {
        let solver = Solver()
        for constraint in constraints {
            do {
                try solver.addConstraint(Constraint(constraint.expression, constraint.relation))
            } catch {
                if case .unsatisfiableConstraint = error { return true }
            }
        }
        return false
    }
}
