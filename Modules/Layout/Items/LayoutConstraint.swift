import ConstraintSolver

/// One linear relation between two layout attributes, as `NSLayoutConstraint`:
/// `first.attribute <relation> multiplier × second.attribute + constant`.
///
/// ```swift
/// let gap = LayoutConstraint(
///     item: label, attribute: .leading, relatedBy: .equal,
///     toItem: icon, attribute: .trailing, constant: 1)
/// gap.isActive = true
/// ```
///
/// An active constraint is held by its first item's view and solved with the rest of that
/// view's tree at the next layout. Changing `constant` or `priority` of an active constraint is
/// cheap and takes effect at the next layout. Items and the holding view are referenced weakly,
/// as in UIKit: the view owns its active constraints, so a constraint never keeps a view alive,
/// and a constraint whose holding view is gone is inactive.
@MainActor
public final class LayoutConstraint: @MainActor CustomStringConvertible {
    /// What a constraint is for, so reports can tell yours from the engine's own.
    enum Origin {
        /// Made by you, directly or with the `ndl` DSL.
        case user
        /// A view's frame, translated because it does not use constraints.
        case autoresizing
        /// A view's intrinsic content size: hugging or compression resistance.
        case contentSize
        /// A layout guide's edges (margins, safe area).
        case guide
    }

    /// The constrained item.
    public private(set) weak var firstItem: (any LayoutItem)?
    /// The left-hand side's attribute, in `first.attribute = multiplier × second.attribute +
    /// constant`.
    public let firstAttribute: LayoutAttribute
    /// How the two sides relate.
    public let relation: Relation
    /// The item related to, or `nil` for a constant (a width or a height only).
    public private(set) weak var secondItem: (any LayoutItem)?
    /// The attribute related to, or `nil` for a constant.
    public let secondAttribute: LayoutAttribute?
    /// The factor applied to the second attribute.
    public let multiplier: Double
    /// Added to the second side. Cheap to change on an active constraint.
    public var constant: Double {
        didSet { if constant != oldValue { changed() } }
    }
    /// How much the constraint matters. Unlike UIKit, an active constraint may move between
    /// required and optional; the engine re-adds it.
    public var priority: LayoutPriority {
        didSet { if priority != oldValue { changed() } }
    }
    /// A name for diagnostics (SnapKit's `labeled`).
    public var identifier: String?
    /// Where the constraint was written, for diagnostics.
    public let location: SourceLocation?

    let origin: Origin
    /// Bumped on each change, so the engine knows to re-add the constraint.
    private(set) var version = 0
    /// The view that holds the constraint while it is active. Weak, as a view owns its
    /// constraints and not the other way round: a strong holder made every view with an active
    /// constraint (a constant `height == 3` is held by the view itself) keep itself alive.
    private weak var holder: View?
    /// When the constraint was last activated: the engine adds a view's constraints in this
    /// order, so a layout solves the same way every time.
    private(set) var activationOrder = 0
    private static var activations = 0

    /// Creates an inactive constraint, as `NSLayoutConstraint(item:attribute:relatedBy:toItem:…)`.
    public convenience init(
        item: any LayoutItem, attribute: LayoutAttribute, relatedBy relation: Relation,
        toItem: (any LayoutItem)? = nil, attribute secondAttribute: LayoutAttribute? = nil,
        multiplier: Double = 1, constant: Double = 0, priority: LayoutPriority = .required,
        identifier: String? = nil, location: SourceLocation? = nil
    ) {
        self.init(
            item: item, attribute: attribute, relatedBy: relation, toItem: toItem,
            attribute: secondAttribute, multiplier: multiplier, constant: constant, priority: priority,
            identifier: identifier, location: location, origin: .user)
    }

    init(
        item: any LayoutItem, attribute: LayoutAttribute, relatedBy relation: Relation,
        toItem: (any LayoutItem)?, attribute secondAttribute: LayoutAttribute?,
        multiplier: Double, constant: Double, priority: LayoutPriority,
        identifier: String?, location: SourceLocation?, origin: Origin
    ) {
        firstItem = item
        firstAttribute = attribute
        self.relation = relation
        secondItem = toItem
        self.secondAttribute = toItem == nil ? nil : (secondAttribute ?? attribute)
        self.multiplier = multiplier
        self.constant = constant
        self.priority = priority
        self.identifier = identifier
        self.location = location
        self.origin = origin
    }

    // MARK: Activation

    /// Whether the constraint takes part in layout. Activating a constraint whose items are not
    /// in one view tree is reported in the tree's ``LayoutReport`` when it is laid out.
    public var isActive: Bool {
        get { holder != nil }
        set { newValue ? install() : uninstall() }
    }

    /// Activates every constraint, as `NSLayoutConstraint.activate(_:)`.
    public static func activate(_ constraints: [LayoutConstraint]) {
        for constraint in constraints { constraint.isActive = true }
    }

    /// Deactivates every constraint.
    public static func deactivate(_ constraints: [LayoutConstraint]) {
        for constraint in constraints { constraint.isActive = false }
    }

    private func install() {
        guard holder == nil, let view = firstItem?.owningView else { return }
        holder = view
        Self.activations += 1
        activationOrder = Self.activations
        view.hold(self)
        secondItem?.owningView?.reference(self)
    }

    private func uninstall() {
        guard let view = holder else { return }
        holder = nil
        view.release(self)
        secondItem?.owningView?.dereference(self)
    }

    private func changed() {
        version &+= 1
        // The engine's own constraints are never activated; their view stands in for a holder.
        (holder ?? (origin == .user ? nil : firstItem?.owningView))?.setNeedsConstraintUpdate()
    }

    // MARK: The solver's form

    /// The solver constraint for the current constant and priority, with leading and trailing
    /// resolved in each item's layout direction; `nil` when an item is gone.
    func makeSolverConstraint() -> Constraint? {
        guard let firstItem, firstItem.owningView != nil else { return nil }
        var expression = firstItem.expression(
            for: firstAttribute, direction: firstItem.owningView?.resolvedDirection ?? .leftToRight)
        if let secondAttribute {
            guard let secondItem, secondItem.owningView != nil else { return nil }
            let second = secondItem.expression(
                for: secondAttribute, direction: secondItem.owningView?.resolvedDirection ?? .leftToRight)
            expression = expression - multiplier * second
            if multiplier != 1 && !firstAttribute.isDimension && !secondAttribute.isDimension,
                let ancestor = Self.nearestCommonAncestor(firstItem.owningView, secondItem.owningView)
            {
                // Auto Layout multiplies positions in the coordinates of the items' nearest common
                // ancestor: `centerX == superview.centerX * 0.5` is a quarter of the superview's
                // width from its left edge, wherever the superview is. first − a = m·(second − a).
                let origin: LayoutAttribute =
                    firstAttribute.axis == .vertical ? .top : firstAttribute.isDirectional ? .leading : .left
                let anchor = ancestor.expression(for: origin, direction: ancestor.resolvedDirection)
                expression = expression - (1 - multiplier) * anchor
            }
        }
        let result = Constraint(expression - constant, relation, strength: priority.strength)
        result.label = identifier
        return result
    }

    private static func nearestCommonAncestor(_ first: View?, _ second: View?) -> View? {
        var ancestors = Set<ObjectIdentifier>()
        var view = first
        while let current = view {
            ancestors.insert(ObjectIdentifier(current))
            view = current.superview
        }
        view = second
        while let current = view {
            if ancestors.contains(ObjectIdentifier(current)) { return current }
            view = current.superview
        }
        return nil
    }

    /// What makes the solver form differ beyond `version`: directions and baseline offsets.
    func layoutSignature() -> Int {
        var hasher = Hasher()
        for (item, attribute) in [(firstItem, firstAttribute), (secondItem, secondAttribute)] {
            guard let item, let attribute else { continue }
            let view = item.owningView
            if attribute.isDirectional { hasher.combine(view?.resolvedDirection) }
            if attribute == .firstBaseline || attribute == .lastBaseline, let view = item as? View {
                hasher.combine(view.firstBaselineOffsetFromTop)
                hasher.combine(view.lastBaselineOffsetFromBottom)
            }
        }
        return hasher.finalize()
    }

    // MARK: Description

    /// As SnapKit prints it:
    /// `<LayoutConstraint:label@File.swift#12 View:title.top == View:0x1a2b.bottom * 2 + 8 ^750>`.
    public var description: String {
        var text = "<LayoutConstraint:"
        if let identifier { text += identifier }
        if let location { text += "@\(location)" }
        text += " \(firstItem?.layoutDebugName ?? "nil").\(firstAttribute) \(relation)"
        if let secondAttribute {
            text += " \(secondItem?.layoutDebugName ?? "nil").\(secondAttribute)"
            if multiplier != 1 { text += " * \(formatted(multiplier))" }
            if constant > 0 { text += " + \(formatted(constant))" }
            if constant < 0 { text += " - \(formatted(-constant))" }
        } else {
            text += " \(formatted(constant))"
        }
        if !priority.isRequired { text += " ^\(priority)" }
        return text + ">"
    }
}

extension LayoutConstraint {
    /// How the two sides compare, as `NSLayoutConstraint.Relation`: the solver's own relation,
    /// so that a module that lays views out names it without importing the solver.
    public typealias Relation = ConstraintSolver.Relation

    /// A file and line, printed as SnapKit does: `File.swift#12`. Nested, so that a test that
    /// imports Layout and Swift Testing names Testing's `SourceLocation` without qualifying it.
    public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
        /// The file path, as `#fileID` or `#filePath` gives it.
        public let file: String
        /// The line, from 1.
        public let line: UInt

        /// The place a constraint was made at; the `ndl` DSL passes the caller's `#fileID` and
        /// `#line`.
        public init(file: String, line: UInt) {
            self.file = file
            self.line = line
        }

        /// `File.swift#12`.
        public var description: String {
            "\(file.split(separator: "/").last.map(String.init) ?? file)#\(line)"
        }
    }
}
