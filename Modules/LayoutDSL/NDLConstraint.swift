import Layout

/// What one `make.…` chain made, as SnapKit's `Constraint`: one layout constraint per attribute,
/// to keep, update, deactivate and activate again.
///
/// ```swift
/// var top: NDLConstraint?
/// try banner.ndl.makeConstraints { make in
///     top = make.top.equalToSuperview().offset(2).constraint
/// }
/// top?.update(offset: 0)          // takes effect at the next layout
/// ```
///
/// (It is not called `Constraint`, because that is the solver's constraint in this module.)
@MainActor
public final class NDLConstraint: @MainActor CustomStringConvertible {
    // What the chain said, kept without its items: the item is held weakly and the related
    // item not at all, as layout constraints hold theirs. A strong reference here would be a
    // cycle (the item keeps its NDL constraints), and a sheet's view constrained to its window
    // would keep the window, and every controller on it, alive.
    private weak var item: (any LayoutItem)?
    private var constant: ConstraintConstant
    private let targetConstant: ConstraintConstant?
    private var labelText: String?
    /// The layout constraints, one per attribute of the chain.
    public let layoutConstraints: [LayoutConstraint]
    let error: LayoutError?

    init(description: ConstraintDescription) {
        item = description.item
        constant = description.constant
        if case .constant(let value) = description.target {
            targetConstant = value
        } else {
            targetConstant = nil
        }
        labelText = description.label
        switch description.makeLayoutConstraints() {
        case .success(let made):
            layoutConstraints = made
            error = nil
        case .failure(let failure):
            layoutConstraints = []
            error = failure
        }
    }

    /// Whether every layout constraint is active. Setting it activates or deactivates the
    /// constraint, as SnapKit's `isActive`.
    public var isActive: Bool {
        get { !layoutConstraints.isEmpty && layoutConstraints.allSatisfy(\.isActive) }
        set { newValue ? activate() : deactivate() }
    }

    /// The name that descriptions and conflict reports print for every layout constraint of the
    /// chain (SnapKit's `labeled`); `nil` for none.
    public var label: String? {
        get { labelText }
        set {
            labelText = newValue
            for constraint in layoutConstraints { constraint.identifier = newValue }
        }
    }

    /// Names the constraint, as ``label`` does; returns it for chaining.
    @discardableResult
    public func labeled(_ label: String) -> NDLConstraint {
        self.label = label
        return self
    }

    /// Activates the constraint and records it with its item, so `remakeConstraints` and
    /// `removeConstraints` find it.
    public func activate() {
        LayoutConstraint.activate(layoutConstraints)
        if let item { NDLConstraintStore.of(item)?.insert(self) }
    }

    /// Deactivates the constraint and forgets it from its item.
    public func deactivate() {
        LayoutConstraint.deactivate(layoutConstraints)
        if let item { NDLConstraintStore.of(item)?.remove(self) }
    }

    /// Sets the offset, as the chain's `offset` would have: each attribute's constant becomes
    /// `amount` (plus the chain's constant target, if it had one).
    @discardableResult
    public func update(offset amount: Double) -> NDLConstraint {
        constant = .number(amount)
        return refreshConstants()
    }

    /// Sets the insets, as the chain's `inset` would have.
    @discardableResult
    public func update(inset amount: Double) -> NDLConstraint {
        update(inset: EdgeInsets(all: amount))
    }

    /// Sets each edge's inset, as the chain's `inset` would have.
    @discardableResult
    public func update(inset insets: EdgeInsets) -> NDLConstraint {
        constant = .insets(insets)
        return refreshConstants()
    }

    /// Sets the priority of every layout constraint. Unlike UIKit and SnapKit, a constraint may
    /// move between required and optional; the engine re-adds it.
    @discardableResult
    public func update(priority: LayoutPriority) -> NDLConstraint {
        for constraint in layoutConstraints { constraint.priority = priority }
        return self
    }

    private func refreshConstants() -> NDLConstraint {
        let direction = item?.owningView?.effectiveUserInterfaceLayoutDirection ?? .leftToRight
        for constraint in layoutConstraints {
            constraint.constant = ConstraintDescription.constantValue(
                constant, plus: targetConstant, for: constraint.secondAttribute ?? constraint.firstAttribute,
                direction: direction)
        }
        return self
    }

    /// The layout constraints, as SnapKit prints them, or the misuse.
    public var description: String {
        if let error { return "<NDLConstraint: \(error)>" }
        return layoutConstraints.map(\.description).joined(separator: "\n")
    }
}

/// The `ndl` constraints an item made, in order, so `remake`, `update` and `remove` find them.
@MainActor
final class NDLConstraintStore {
    private(set) var constraints: [NDLConstraint] = []

    /// The store kept with a view or a guide, made the first time it is asked for.
    static func of(_ item: any LayoutItem) -> NDLConstraintStore? {
        if let view = item as? View { return attached(to: &view.ndlStorage) }
        if let guide = item as? LayoutGuide { return attached(to: &guide.ndlStorage) }
        return nil
    }

    private static func attached(to storage: inout AnyObject?) -> NDLConstraintStore {
        if let store = storage as? NDLConstraintStore { return store }
        let store = NDLConstraintStore()
        storage = store
        return store
    }

    func insert(_ constraint: NDLConstraint) {
        if !constraints.contains(where: { $0 === constraint }) { constraints.append(constraint) }
    }

    func remove(_ constraint: NDLConstraint) {
        constraints.removeAll { $0 === constraint }
    }

    func removeAll() -> [NDLConstraint] {
        defer { constraints.removeAll() }
        return constraints
    }
}
