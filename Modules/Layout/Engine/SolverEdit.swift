import ConstraintSolver

/// An edit variable as a layout holds it: the variable, its strength and the value last
/// suggested (see ``View/solverEdits``).
package struct SolverEdit {
    /// The edit variable.
    package let variable: Variable
    /// How hard the solver holds the suggested value against the constraints that pull away
    /// from it; a required constraint always wins.
    package let strength: Strength
    /// The value last suggested.
    package let value: Double
}
