/// An unknown of a constraint system: a name and the value the solver last gave it.
///
/// Variables are compared by identity, as in kiwi: two variables with the same name are still two
/// unknowns. `Variable` is deliberately not `Equatable`, so that `a == b` always builds a
/// ``Constraint`` and never means a Boolean comparison.
public final class Variable: CustomStringConvertible {
    /// A name for diagnostics, e.g. `label.left`.
    public let name: String
    /// The value from the last ``Solver/updateVariables()``; 0 before that.
    ///
    /// Layout writes it too (`package`): a view placed by its frame stays outside the solver,
    /// and its variables still say where it is (decision 08).
    public package(set) var value: Double = 0

    /// A new unknown, distinct from every other variable whatever its `name`, which only
    /// descriptions and errors show.
    public init(_ name: String = "") {
        self.name = name
    }

    /// The name, or the object's identity if it has none.
    public var description: String { name.isEmpty ? "v\(ObjectIdentifier(self).hashValue & 0xFFFF)" : name }
}
