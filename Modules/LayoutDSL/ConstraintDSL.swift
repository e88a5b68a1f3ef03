import Layout

/// The `ndl` namespace of a view or a guide, as SnapKit's `snp`: the attributes to relate to,
/// and `makeConstraints` with its siblings.
///
/// Where SnapKit crashes on misuse, these throw a ``LayoutError`` and change nothing: a chain
/// relating to a missing superview, items in two trees, attributes that do not pair up, a
/// constant that is not finite, or an `updateConstraints` that changes more than constants.
@MainActor
public struct ConstraintDSL {
    /// The view or guide.
    public let target: any LayoutItem

    init(target: any LayoutItem) {
        self.target = target
    }

    // MARK: Making constraints

    /// Makes the closure's constraints without activating them.
    public func prepareConstraints(_ closure: (ConstraintMaker) -> Void) throws(LayoutError)
        -> [NDLConstraint]
    {
        try make(closure)
    }

    /// Makes and activates the closure's constraints.
    @discardableResult
    public func makeConstraints(_ closure: (ConstraintMaker) -> Void) throws(LayoutError) -> [NDLConstraint] {
        let made = try make(closure)
        for constraint in made { constraint.activate() }
        return made
    }

    /// Removes every constraint `ndl` made for the item, then makes the closure's. If the closure
    /// misuses the DSL, the old constraints stay.
    @discardableResult
    public func remakeConstraints(_ closure: (ConstraintMaker) -> Void) throws(LayoutError) -> [NDLConstraint]
    {
        let made = try make(closure)
        removeConstraints()
        for constraint in made { constraint.activate() }
        return made
    }

    /// Changes the constants of the item's existing `ndl` constraints to the closure's, as
    /// SnapKit's `updateConstraints` does; makes them if the item has none yet.
    ///
    /// Each attribute is matched on its own, against every layout constraint `ndl` made for the
    /// item: after `make.top.left.equalToSuperview()`, an update of `make.left` changes that one,
    /// and `make.edges.equalToSuperview().inset(10)` updates four edges made one by one. A match
    /// has the same items, attributes, relation, multiplier and priority; only the constant
    /// changes. Returns the existing constraints that changed.
    ///
    /// - Throws: ``LayoutError/updateMismatch(constraint:)`` when an attribute matches no
    ///   existing layout constraint (SnapKit crashes there); nothing is changed then.
    @discardableResult
    public func updateConstraints(_ closure: (ConstraintMaker) -> Void) throws(LayoutError) -> [NDLConstraint]
    {
        let made = try make(closure)
        let existing = NDLConstraintStore.of(target)?.constraints ?? []
        guard !existing.isEmpty else {
            for constraint in made { constraint.activate() }
            return made
        }
        let candidates = existing.flatMap { owner in owner.layoutConstraints.map { (owner, $0) } }
        var updates: [(owner: NDLConstraint, old: LayoutConstraint, constant: Double)] = []
        for constraint in made {
            for new in constraint.layoutConstraints {
                guard let match = candidates.first(where: { Self.matches($0.1, new) }) else {
                    throw .updateMismatch(constraint: new.description)
                }
                updates.append((match.0, match.1, new.constant))
            }
        }
        var changed: [NDLConstraint] = []
        for update in updates {
            update.old.constant = update.constant
            if !changed.contains(where: { $0 === update.owner }) { changed.append(update.owner) }
        }
        return changed
    }

    /// Deactivates every constraint `ndl` made for the item.
    public func removeConstraints() {
        for constraint in NDLConstraintStore.of(target)?.removeAll() ?? [] {
            LayoutConstraint.deactivate(constraint.layoutConstraints)
        }
    }

    private func make(_ closure: (ConstraintMaker) -> Void) throws(LayoutError) -> [NDLConstraint] {
        (target as? View)?.translatesAutoresizingMaskIntoConstraints = false
        let maker = ConstraintMaker(item: target)
        closure(maker)
        return try maker.makeConstraints().get()
    }

    /// SnapKit's matching rule: the same items, attributes, relation, multiplier and priority;
    /// only the constant may differ. The new constraint's constant was computed for the same
    /// attribute related to, so it is the one to take.
    private static func matches(_ old: LayoutConstraint, _ new: LayoutConstraint) -> Bool {
        old.firstItem === new.firstItem && old.firstAttribute == new.firstAttribute
            && old.relation == new.relation && old.secondItem === new.secondItem
            && old.secondAttribute == new.secondAttribute && old.multiplier == new.multiplier
            && old.priority == new.priority
    }

    // MARK: Label and content priorities

    /// Names the view or guide in constraint descriptions and conflict reports, as SnapKit's
    /// `setLabel(_:)`: a view's ``View/accessibilityIdentifier``, a guide's identifier.
    public func setLabel(_ value: String?) {
        if let view = target as? View { view.accessibilityIdentifier = value }
        if let guide = target as? LayoutGuide { guide.identifier = value }
    }

    /// The label set with ``setLabel(_:)``.
    public func label() -> String? {
        (target as? View)?.accessibilityIdentifier ?? (target as? LayoutGuide)?.identifier
    }

    /// How much the view resists growing wider than its content (SnapKit's
    /// `contentHuggingHorizontalPriority`). A guide has no content: it reads 250, and a write is
    /// logged as misuse.
    public var contentHuggingHorizontalPriority: LayoutPriority {
        get { (target as? View)?.contentHuggingPriority(for: .horizontal) ?? .defaultLow }
        nonmutating set { onView { $0.setContentHuggingPriority(newValue, for: .horizontal) } }
    }

    /// How much the view resists growing taller than its content.
    public var contentHuggingVerticalPriority: LayoutPriority {
        get { (target as? View)?.contentHuggingPriority(for: .vertical) ?? .defaultLow }
        nonmutating set { onView { $0.setContentHuggingPriority(newValue, for: .vertical) } }
    }

    /// How much the view resists becoming narrower than its content (SnapKit's
    /// `contentCompressionResistanceHorizontalPriority`). A guide reads 750.
    public var contentCompressionResistanceHorizontalPriority: LayoutPriority {
        get { (target as? View)?.contentCompressionResistancePriority(for: .horizontal) ?? .defaultHigh }
        nonmutating set { onView { $0.setContentCompressionResistancePriority(newValue, for: .horizontal) } }
    }

    /// How much the view resists becoming shorter than its content.
    public var contentCompressionResistanceVerticalPriority: LayoutPriority {
        get { (target as? View)?.contentCompressionResistancePriority(for: .vertical) ?? .defaultHigh }
        nonmutating set { onView { $0.setContentCompressionResistancePriority(newValue, for: .vertical) } }
    }

    private func onView(_ body: (View) -> Void) {
        guard let view = target as? View else {
            LayoutLog.misuse(
                "\(target.layoutDebugName) is a layout guide: it has no content to hug or resist.")
            return
        }
        body(view)
    }

    // MARK: Attributes to relate to

    private func item(_ attributes: ConstraintAttributes) -> ConstraintItem {
        ConstraintItem(target: target, attributes: attributes)
    }

    /// The item's ``LayoutAttribute/left``, for another item's constraint to refer to.
    public var left: ConstraintItem { item(.left) }
    /// The item's ``LayoutAttribute/top``, for another item's constraint to refer to.
    public var top: ConstraintItem { item(.top) }
    /// The item's ``LayoutAttribute/right``, for another item's constraint to refer to.
    public var right: ConstraintItem { item(.right) }
    /// The item's ``LayoutAttribute/bottom``, for another item's constraint to refer to.
    public var bottom: ConstraintItem { item(.bottom) }
    /// The item's ``LayoutAttribute/leading``, for another item's constraint to refer to.
    public var leading: ConstraintItem { item(.leading) }
    /// The item's ``LayoutAttribute/trailing``, for another item's constraint to refer to.
    public var trailing: ConstraintItem { item(.trailing) }
    /// The item's ``LayoutAttribute/width``, for another item's constraint to refer to.
    public var width: ConstraintItem { item(.width) }
    /// The item's ``LayoutAttribute/height``, for another item's constraint to refer to.
    public var height: ConstraintItem { item(.height) }
    /// The item's ``LayoutAttribute/centerX``, for another item's constraint to refer to.
    public var centerX: ConstraintItem { item(.centerX) }
    /// The item's ``LayoutAttribute/centerY``, for another item's constraint to refer to.
    public var centerY: ConstraintItem { item(.centerY) }
    /// The item's ``LayoutAttribute/lastBaseline``, for another item's constraint to refer to.
    public var lastBaseline: ConstraintItem { item(.lastBaseline) }
    /// The item's ``LayoutAttribute/firstBaseline``, for another item's constraint to refer to.
    public var firstBaseline: ConstraintItem { item(.firstBaseline) }
    /// The item's ``LayoutAttribute/leftMargin``, for another item's constraint to refer to.
    public var leftMargin: ConstraintItem { item(.leftMargin) }
    /// The item's ``LayoutAttribute/rightMargin``, for another item's constraint to refer to.
    public var rightMargin: ConstraintItem { item(.rightMargin) }
    /// The item's ``LayoutAttribute/topMargin``, for another item's constraint to refer to.
    public var topMargin: ConstraintItem { item(.topMargin) }
    /// The item's ``LayoutAttribute/bottomMargin``, for another item's constraint to refer to.
    public var bottomMargin: ConstraintItem { item(.bottomMargin) }
    /// The item's ``LayoutAttribute/leadingMargin``, for another item's constraint to refer to.
    public var leadingMargin: ConstraintItem { item(.leadingMargin) }
    /// The item's ``LayoutAttribute/trailingMargin``, for another item's constraint to refer to.
    public var trailingMargin: ConstraintItem { item(.trailingMargin) }
    /// The item's ``LayoutAttribute/centerXWithinMargins``, for another item's constraint to refer
    /// to.
    public var centerXWithinMargins: ConstraintItem { item(.centerXWithinMargins) }
    /// The item's ``LayoutAttribute/centerYWithinMargins``, for another item's constraint to refer
    /// to.
    public var centerYWithinMargins: ConstraintItem { item(.centerYWithinMargins) }
    /// The four edges.
    public var edges: ConstraintItem { item(.edges) }
    /// Left and right.
    public var horizontalEdges: ConstraintItem { item(.horizontalEdges) }
    /// Top and bottom.
    public var verticalEdges: ConstraintItem { item(.verticalEdges) }
    /// Top, leading, bottom and trailing.
    public var directionalEdges: ConstraintItem { item(.directionalEdges) }
    /// Leading and trailing.
    public var directionalHorizontalEdges: ConstraintItem { item(.directionalHorizontalEdges) }
    /// Top and bottom.
    public var directionalVerticalEdges: ConstraintItem { item(.directionalVerticalEdges) }
    /// Width and height.
    public var size: ConstraintItem { item(.size) }
    /// Both centres.
    public var center: ConstraintItem { item(.center) }
    /// The four margins.
    public var margins: ConstraintItem { item(.margins) }
    /// Top, leading, bottom and trailing margins.
    public var directionalMargins: ConstraintItem { item(.directionalMargins) }
    /// Both centres of the margins.
    public var centerWithinMargins: ConstraintItem { item(.centerWithinMargins) }
}

extension View {
    /// The `ndl` layout DSL: `view.ndl.makeConstraints { make in … }`.
    public var ndl: ConstraintDSL { ConstraintDSL(target: self) }
}

extension LayoutGuide {
    /// The `ndl` layout DSL for the guide; its "superview" is its owning view.
    public var ndl: ConstraintDSL { ConstraintDSL(target: self) }
}
