/// An unknown of a constraint system: a name and the value the solver last gave it.
///
/// Variables are compared by identity, as in kiwi: two variables with the same name are still two
/// unknowns. `Variable` is deliberately not `Equatable`, so that `a == b` always builds a
/// ``Constraint`` and never means a Boolean comparison.
public final class Variable: CustomStringConvertible {
    /// A name for diagnostics, e.g. `label.left`.
    public let name: String
    /// The value from the last ``Solver/updateVariables()``; 0 before that.
    public internal(set) var value: Double = 0

    /// A new unknown, distinct from every other variable whatever its `name`, which only
    /// descriptions and errors show.
    public init(_ name: String = "") {
        self.name = name
    }

    /// The name, or the object's identity if it has none.
    public var description: String { name.isEmpty ? "v\(ObjectIdentifier(self).hashValue & 0xFFFF)" : name }
}

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
