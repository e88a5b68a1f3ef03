import Layout

/// One `make.…` chain as it is being written; it becomes an ``NDLConstraint`` when the maker
/// finishes (or when the chain's `constraint` is read).
@MainActor
final class ConstraintDescription {
    let item: any LayoutItem
    var attributes: ConstraintAttributes
    var relation: LayoutConstraint.Relation?
    var target: ConstraintRelationTarget?
    var multiplier = 1.0
    var constant = ConstraintConstant.number(0)
    var priority = LayoutPriority.required
    var label: String?
    var location: LayoutConstraint.SourceLocation?
    /// A misuse found while the chain was written (`equalToSuperview()` without a superview).
    var error: LayoutError?
    private var made: NDLConstraint?

    init(item: any LayoutItem, attributes: ConstraintAttributes) {
        self.item = item
        self.attributes = attributes
    }

    /// The constraint, made once; `nil` for a chain that names no relation.
    var constraint: NDLConstraint? {
        if let made { return made }
        guard relation != nil else { return nil }
        let constraint = NDLConstraint(description: self)
        made = constraint
        return constraint
    }

    /// The layout constraints the chain stands for, one per attribute.
    func makeLayoutConstraints() -> Result<[LayoutConstraint], LayoutError> {
        if let error { return .failure(error) }
        guard let relation, let target else { return .success([]) }
        guard let view = item.owningView else {
            return .failure(.guideNotInView(guide: item.layoutDebugName))
        }
        guard multiplier.isFinite, multiplier != 0 || target.isConstant else {
            return .failure(.notFinite(what: "The multiplier of \(item.layoutDebugName).\(attributes.name)"))
        }
        if case .constant(let value) = target, !value.isFinite {
            return .failure(.notFinite(what: "The constant of \(item.layoutDebugName).\(attributes.name)"))
        }
        guard constant.isFinite else {
            return .failure(.notFinite(what: "The constant of \(item.layoutDebugName).\(attributes.name)"))
        }
        let direction = view.effectiveUserInterfaceLayoutDirection
        var made: [LayoutConstraint] = []
        for attribute in attributes.layoutAttributes {
            let other: (item: (any LayoutItem)?, attribute: LayoutAttribute?)
            switch target {
            case .constant:
                if attribute.isDimension {
                    other = (nil, nil)
                } else {
                    guard let superview = superviewItem() else {
                        return .failure(
                            .noSuperview(item: item.layoutDebugName, attribute: attribute.description))
                    }
                    other = (superview, Self.superviewAttribute(for: attribute))
                }
            case .item(let related):
                switch pairedAttribute(for: attribute, among: related.attributes) {
                case .success(let paired): other = (related.target, paired)
                case .failure(let error): return .failure(error)
                }
                if let failure = Self.checkSameTree(item, related.target) { return .failure(failure) }
            }
            // As SnapKit: the constant follows the attribute related to, so an inset to another
            // view's bottom is subtracted, whatever attribute it constrains.
            let constantValue = constantValue(for: other.attribute ?? attribute, direction: direction)
            made.append(
                LayoutConstraint(
                    item: item, attribute: attribute, relatedBy: relation, toItem: other.item,
                    attribute: other.attribute, multiplier: other.item == nil ? 1 : multiplier,
                    constant: constantValue, priority: priority, identifier: label, location: location))
        }
        return .success(made)
    }

    /// The constant of a layout constraint that relates to `attribute` (its second attribute,
    /// or its first when it has none). Unlike SnapKit, where a later `offset` replaces a
    /// constant target, the two add up: `equalTo(10).offset(2)` is 12, as the original RIBs-todo
    /// app's `.constant(_:)` adds.
    func constantValue(for attribute: LayoutAttribute, direction: LayoutDirection) -> Double {
        if case .constant(let targetConstant) = target {
            return Self.constantValue(constant, plus: targetConstant, for: attribute, direction: direction)
        }
        return Self.constantValue(constant, plus: nil, for: attribute, direction: direction)
    }

    /// `constant` for `attribute`, plus a constant target's when there is one.
    static func constantValue(
        _ constant: ConstraintConstant, plus targetConstant: ConstraintConstant?,
        for attribute: LayoutAttribute, direction: LayoutDirection
    ) -> Double {
        constant.value(for: attribute, direction: direction)
            + (targetConstant?.value(for: attribute, direction: direction) ?? 0)
    }

    private func superviewItem() -> (any LayoutItem)? {
        if let view = item as? View { return view.superview }
        return item.owningView
    }

    /// A bare constant on a centre means a position in the superview, as SnapKit does on UIKit:
    /// `centerX.equalTo(10)` puts the centre 10 from the superview's left edge.
    private static func superviewAttribute(for attribute: LayoutAttribute) -> LayoutAttribute {
        switch attribute {
        case .centerX: .left
        case .centerY: .top
        case .centerXWithinMargins: .leftMargin
        case .centerYWithinMargins: .topMargin
        default: attribute
        }
    }

    /// SnapKit's rule: several attributes relate to the same attributes, to one attribute, or
    /// edges to margins (and back); anything else is a mismatch.
    private func pairedAttribute(for attribute: LayoutAttribute, among related: ConstraintAttributes)
        -> Result<LayoutAttribute, LayoutError>
    {
        let others = related.layoutAttributes
        let paired: LayoutAttribute?
        if others.isEmpty || related == attributes {
            paired = attribute
        } else if others.count == 1 {
            paired = others[0]
        } else if let margin = ConstraintAttributes.marginCounterpart(of: attribute), others.contains(margin),
            others.count == attributes.layoutAttributes.count
        {
            paired = margin
        } else {
            paired = others.first { ConstraintAttributes.marginCounterpart(of: $0) == attribute }
                .flatMap { others.count == attributes.layoutAttributes.count ? $0 : nil }
        }
        guard let paired, Self.compatible(attribute, paired) else {
            return .failure(.mismatchedAttributes(from: attributes.name, to: related.name))
        }
        return .success(paired)
    }

    /// Auto Layout's rules: a width or height relates to a width or height (of either axis); a
    /// position relates to a position on its own axis; and leading and trailing relate only to
    /// leading and trailing, never to left, right or a horizontal centre.
    private static func compatible(_ first: LayoutAttribute, _ second: LayoutAttribute) -> Bool {
        let a = first.withoutMargin.attribute
        let b = second.withoutMargin.attribute
        if a.isDimension || b.isDimension { return a.isDimension && b.isDimension }
        return a.axis == b.axis && a.isDirectional == b.isDirectional
    }

    private static func checkSameTree(_ first: any LayoutItem, _ second: any LayoutItem) -> LayoutError? {
        guard let secondView = second.owningView else {
            return .guideNotInView(guide: second.layoutDebugName)
        }
        guard let firstView = first.owningView, firstView.rootView === secondView.rootView else {
            return .noCommonAncestor(first: first.layoutDebugName, second: second.layoutDebugName)
        }
        return nil
    }
}

extension ConstraintRelationTarget {
    var isConstant: Bool {
        if case .constant = self { return true }
        return false
    }
}
