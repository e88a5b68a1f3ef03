/// A layout constraint named in an error or a report: its description, and its identity to
/// match against the constraint in hand (errors must be `Sendable`; constraints are not).
public struct ConstraintReference: Sendable, Hashable, CustomStringConvertible {
    /// The constraint's description, as ``LayoutConstraint/description`` prints it.
    public let description: String
    private let identifier: ObjectIdentifier

    @MainActor init(_ constraint: LayoutConstraint) {
        description = constraint.description
        identifier = ObjectIdentifier(constraint)
    }

    /// Whether this names `constraint`.
    public func refers(to constraint: LayoutConstraint) -> Bool {
        identifier == ObjectIdentifier(constraint)
    }
}

/// What layout refuses: required constraints that cannot all hold, and misuse of the API that
/// SnapKit and UIKit answer with a crash.
public enum LayoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Required constraints that cannot hold together, as Auto Layout's "Unable to simultaneously
    /// satisfy constraints": `involved` is a smallest conflicting set, and `broken` is the one
    /// left out of the layout so that the others hold.
    case unsatisfiableConstraints(broken: ConstraintReference, involved: [ConstraintReference])
    /// A constraint relates to the superview of an item that has none.
    case noSuperview(item: String, attribute: String)
    /// The two items of a constraint are not in one view tree.
    case noCommonAncestor(first: String, second: String)
    /// Several attributes were related to attributes that do not pair up with them.
    case mismatchedAttributes(from: String, to: String)
    /// `updateConstraints` made a constraint that matches none of the item's existing ones in
    /// items, attributes, relation, multiplier and priority; only constants can be updated.
    case updateMismatch(constraint: String)
    /// A layout guide that no view owns.
    case guideNotInView(guide: String)
    /// A constant, multiplier or inset that is not a finite number.
    case notFinite(what: String)
    /// A view added below itself.
    case hierarchyCycle(parent: String, child: String)
    /// The solver's own arithmetic failed and rebuilding its tableau could not keep every
    /// constraint: a bug in Ribcage, never a conflict between your constraints. The message
    /// names what was left out; the next layout tries it again.
    case internalSolverError(String)

    /// A message naming what went wrong and what to do.
    public var description: String {
        switch self {
        case .unsatisfiableConstraints(let broken, let involved):
            "Unable to simultaneously satisfy constraints:\n"
                + involved.map { "    \($0)" }.joined(separator: "\n")
                + "\nBroke \(broken) so that the others hold."
        case .noSuperview(let item, let attribute):
            "\(item).\(attribute) is related to its superview, but \(item) has no superview; add it to one first."
        case .noCommonAncestor(let first, let second):
            "\(first) and \(second) have no common ancestor; constraints can only relate views in one tree."
        case .mismatchedAttributes(let from, let to):
            "Cannot constrain \(from) to \(to): several attributes must match one to one (or relate to a single attribute)."
        case .updateMismatch(let constraint):
            "updateConstraints found no existing constraint matching \(constraint); only constants can be updated, use remakeConstraints to change anything else."
        case .guideNotInView(let guide):
            "\(guide) is not in a view; add it with addLayoutGuide(_:) first."
        case .notFinite(let what):
            "\(what) is not a finite number."
        case .hierarchyCycle(let parent, let child):
            "Cannot add \(child) to \(parent): \(child) is \(parent) or one of its ancestors."
        case .internalSolverError(let message):
            "The layout solver failed (a bug in Ribcage, not a conflict in your constraints): \(message)"
        }
    }
}

/// What a layout pass broke, skipped or let give way. Read it from ``View/layoutReport``.
public struct LayoutReport: Sendable, Hashable {
    /// Required conflicts and skipped constraints, each with its reason.
    public internal(set) var errors: [LayoutError] = []
    /// Your optional constraints the solved layout does not keep because stronger ones won, as
    /// Auto Layout lets optional constraints give way.
    public internal(set) var gaveWay: [ConstraintReference] = []
    /// Whether the root view's frame had to give way to required constraints.
    public internal(set) var rootFrameGaveWay = false

    /// Creates an empty report.
    init() {}
}
