import ConstraintSolver

/// An edit variable as a layout holds it: the variable, its strength and the value last
/// suggested (see ``View/solverEdits``).
public struct SolverEdit {
    /// The edit variable.
    public let variable: Variable
    /// How hard the solver holds the suggested value against the constraints that pull away
    /// from it; a required constraint always wins.
    public let strength: Strength
    /// The value last suggested.
    public let value: Double
}
