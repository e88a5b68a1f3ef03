/// The constraint or variable an error is about: its description, and its identity to match
/// against the object in hand (the objects themselves are not `Sendable`, errors must be).
public struct SolverErrorSubject: Sendable, CustomStringConvertible {
    /// The constraint's or variable's description, e.g. `width: w - 100 == 0 | required`.
    public let description: String
    private let identifier: ObjectIdentifier

    init(_ constraint: Constraint) {
        description = constraint.description
        identifier = ObjectIdentifier(constraint)
    }

    init(_ variable: Variable) {
        description = variable.description
        identifier = ObjectIdentifier(variable)
    }

    /// Whether this is about `object`.
    public func refers(to object: AnyObject) -> Bool {
        identifier == ObjectIdentifier(object)
    }
}

/// What the solver refuses, each case naming the constraint or variable involved.
public enum SolverError: Error, CustomStringConvertible {
    /// A required constraint cannot hold together with the others.
    case unsatisfiableConstraint(SolverErrorSubject)
    /// The constraint is not in the solver.
    case unknownConstraint(SolverErrorSubject)
    /// The constraint is already in the solver.
    case duplicateConstraint(SolverErrorSubject)
    /// The variable is not an edit variable.
    case unknownEditVariable(SolverErrorSubject)
    /// The variable is already an edit variable.
    case duplicateEditVariable(SolverErrorSubject)
    /// An edit variable cannot be required.
    case badRequiredStrength(SolverErrorSubject)
    /// The solver's own invariant broke; a bug, reported rather than crashing.
    case internalError(String)

    /// The constraint or variable involved.
    public var subject: SolverErrorSubject? {
        switch self {
        case .unsatisfiableConstraint(let subject), .unknownConstraint(let subject),
            .duplicateConstraint(let subject),
            .unknownEditVariable(let subject), .duplicateEditVariable(let subject),
            .badRequiredStrength(let subject):
            subject
        case .internalError: nil
        }
    }

    /// A message naming what went wrong.
    public var description: String {
        switch self {
        case .unsatisfiableConstraint(let constraint):
            "Unable to satisfy the required constraint \(constraint)."
        case .unknownConstraint(let constraint): "The constraint \(constraint) is not in the solver."
        case .duplicateConstraint(let constraint): "The constraint \(constraint) is already in the solver."
        case .unknownEditVariable(let variable): "\(variable) is not an edit variable."
        case .duplicateEditVariable(let variable): "\(variable) is already an edit variable."
        case .badRequiredStrength(let variable): "The edit variable \(variable) cannot be required."
        case .internalError(let message): "Internal solver error: \(message)."
        }
    }
}
