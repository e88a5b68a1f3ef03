import Layout

/// The last link of a chain: a label, and the made constraint (SnapKit's
/// `ConstraintMakerFinalizable`).
@MainActor
public class ConstraintMakerFinalizable {
    let description: ConstraintDescription

    init(_ description: ConstraintDescription) {
        self.description = description
    }

    /// Names the constraint in descriptions and reports.
    @discardableResult
    public func labeled(_ label: String) -> ConstraintMakerFinalizable {
        description.label = label
        return self
    }

    /// The constraint this chain makes, to keep and update or deactivate later. For a chain
    /// with a misuse it has no layout constraints, and the maker throws the misuse.
    public var constraint: NDLConstraint {
        description.constraint ?? NDLConstraint(description: description)
    }
}

/// A chain that can still take a priority (SnapKit's `ConstraintMakerPrioritizable`).
@MainActor
public class ConstraintMakerPrioritizable: ConstraintMakerFinalizable {
    /// Sets the priority (required by default).
    @discardableResult
    public func priority(_ priority: LayoutPriority) -> ConstraintMakerFinalizable {
        description.priority = priority
        return self
    }

    /// Sets the priority from a number, 1…1,000.
    @discardableResult
    public func priority(_ amount: some BinaryFloatingPoint) -> ConstraintMakerFinalizable {
        priority(LayoutPriority(Double(amount)))
    }
}

/// A chain after its relation: multiplier and constant (SnapKit's `ConstraintMakerEditable`).
@MainActor
public class ConstraintMakerEditable: ConstraintMakerPrioritizable {
    /// Multiplies the related attribute by `amount`. As in SnapKit the last `multipliedBy` or
    /// `dividedBy` of a chain wins: `multipliedBy(0.5).dividedBy(4)` is 0.25.
    @discardableResult
    public func multipliedBy(_ amount: some BinaryFloatingPoint) -> ConstraintMakerEditable {
        description.multiplier = Double(amount)
        return self
    }

    /// Multiplies the related attribute.
    @discardableResult
    public func multipliedBy(_ amount: some BinaryInteger) -> ConstraintMakerEditable {
        multipliedBy(Double(amount))
    }

    /// Multiplies the related attribute by 1/`amount`; the last `multipliedBy` or `dividedBy`
    /// of a chain wins, as in SnapKit.
    @discardableResult
    public func dividedBy(_ amount: some BinaryFloatingPoint) -> ConstraintMakerEditable {
        description.multiplier = 1 / Double(amount)
        return self
    }

    /// Divides the related attribute (multiplies it by 1/`amount`).
    @discardableResult
    public func dividedBy(_ amount: some BinaryInteger) -> ConstraintMakerEditable {
        dividedBy(Double(amount))
    }

    /// Adds `amount` to every attribute's constant as it is: `top.equalTo(other).offset(8)`
    /// puts the top 8 below.
    @discardableResult
    public func offset(_ amount: some BinaryFloatingPoint) -> ConstraintMakerEditable {
        description.constant = .number(Double(amount))
        return self
    }

    /// Adds `amount` to every attribute's constant as it is.
    @discardableResult
    public func offset(_ amount: some BinaryInteger) -> ConstraintMakerEditable {
        offset(Double(amount))
    }

    /// The original RIBs-todo app's spelling: adds `amount` to the constant.
    @discardableResult
    public func constant(_ amount: Double) -> ConstraintMakerEditable {
        if case .number(let current) = description.constant {
            description.constant = .number(current + amount)
        } else {
            description.constant = .number(amount)
        }
        return self
    }

    /// Insets every edge by `amount`: inwards on each side, so `edges.inset(2)` gives 2, 2, −2, −2.
    @discardableResult
    public func inset(_ amount: some BinaryFloatingPoint) -> ConstraintMakerEditable {
        inset(EdgeInsets(all: Double(amount)))
    }

    /// Insets every edge by `amount`.
    @discardableResult
    public func inset(_ amount: some BinaryInteger) -> ConstraintMakerEditable {
        inset(Double(amount))
    }

    /// Insets each edge by its own amount.
    @discardableResult
    public func inset(_ insets: EdgeInsets) -> ConstraintMakerEditable {
        description.constant = .insets(insets)
        return self
    }

    /// Insets top, leading, bottom and trailing by their own amounts.
    @discardableResult
    public func inset(_ insets: DirectionalEdgeInsets) -> ConstraintMakerEditable {
        description.constant = .directionalInsets(insets)
        return self
    }
}

/// A chain before its relation (SnapKit's `ConstraintMakerRelatable`).
@MainActor
public class ConstraintMakerRelatable {
    let description: ConstraintDescription

    init(_ description: ConstraintDescription) {
        self.description = description
    }

    private func relate(
        _ relation: LayoutConstraint.Relation, _ target: ConstraintRelationTarget, _ file: String,
        _ line: UInt
    ) -> ConstraintMakerEditable {
        description.relation = relation
        description.target = target
        description.location = LayoutConstraint.SourceLocation(file: file, line: line)
        return ConstraintMakerEditable(description)
    }

    private func superviewTarget(
        _ relation: LayoutConstraint.Relation, _ closure: ((View) -> any ConstraintRelatableTarget)?,
        _ file: String, _ line: UInt
    ) -> ConstraintMakerEditable {
        let item = description.item
        let superview = (item as? View).map(\.superview) ?? item.owningView
        guard let superview else {
            description.error = .noSuperview(
                item: item.layoutDebugName, attribute: description.attributes.name)
            return relate(relation, .constant(.number(0)), file, line)
        }
        let target = closure?(superview).constraintRelationTarget ?? superview.constraintRelationTarget
        return relate(relation, target, file, line)
    }

    /// `==` another item, its attributes, or a constant.
    @discardableResult
    public func equalTo(
        _ other: any ConstraintRelatableTarget, _ file: String = #fileID, _ line: UInt = #line
    ) -> ConstraintMakerEditable {
        relate(.equal, other.constraintRelationTarget, file, line)
    }

    /// `<=` another item, its attributes, or a constant.
    @discardableResult
    public func lessThanOrEqualTo(
        _ other: any ConstraintRelatableTarget, _ file: String = #fileID, _ line: UInt = #line
    ) -> ConstraintMakerEditable {
        relate(.lessThanOrEqual, other.constraintRelationTarget, file, line)
    }

    /// `>=` another item, its attributes, or a constant.
    @discardableResult
    public func greaterThanOrEqualTo(
        _ other: any ConstraintRelatableTarget, _ file: String = #fileID, _ line: UInt = #line
    ) -> ConstraintMakerEditable {
        relate(.greaterThanOrEqual, other.constraintRelationTarget, file, line)
    }

    /// `==` the superview (a guide's owning view), or what `closure` picks from it:
    /// `equalToSuperview { $0.safeAreaLayoutGuide }`.
    @discardableResult
    public func equalToSuperview(
        _ file: String = #fileID, _ line: UInt = #line,
        _ closure: ((View) -> any ConstraintRelatableTarget)? = nil
    ) -> ConstraintMakerEditable {
        superviewTarget(.equal, closure, file, line)
    }

    /// `<=` the superview, or what `closure` picks from it.
    @discardableResult
    public func lessThanOrEqualToSuperview(
        _ file: String = #fileID, _ line: UInt = #line,
        _ closure: ((View) -> any ConstraintRelatableTarget)? = nil
    ) -> ConstraintMakerEditable {
        superviewTarget(.lessThanOrEqual, closure, file, line)
    }

    /// `>=` the superview, or what `closure` picks from it.
    @discardableResult
    public func greaterThanOrEqualToSuperview(
        _ file: String = #fileID, _ line: UInt = #line,
        _ closure: ((View) -> any ConstraintRelatableTarget)? = nil
    ) -> ConstraintMakerEditable {
        superviewTarget(.greaterThanOrEqual, closure, file, line)
    }

    /// The original RIBs-todo app's spelling: `==` `view`, or its safe-area guide when
    /// `needSafeAreaLayoutGuide`.
    @discardableResult
    public func equalTo(
        _ view: View, needSafeAreaLayoutGuide: Bool, _ file: String = #fileID, _ line: UInt = #line
    ) -> ConstraintMakerEditable {
        equalTo(needSafeAreaLayoutGuide ? view.safeAreaLayoutGuide : view, file, line)
    }
}

/// A chain that can still name more attributes (SnapKit's `ConstraintMakerExtendable`):
/// `make.top.left`.
@MainActor
public final class ConstraintMakerExtendable: ConstraintMakerRelatable {
    private func adding(_ attributes: ConstraintAttributes) -> ConstraintMakerExtendable {
        description.attributes.formUnion(attributes)
        return self
    }

    /// Adds the left edge.
    public var left: ConstraintMakerExtendable { adding(.left) }
    /// Adds the top edge.
    public var top: ConstraintMakerExtendable { adding(.top) }
    /// Adds the right edge.
    public var right: ConstraintMakerExtendable { adding(.right) }
    /// Adds the bottom edge.
    public var bottom: ConstraintMakerExtendable { adding(.bottom) }
    /// Adds the leading edge.
    public var leading: ConstraintMakerExtendable { adding(.leading) }
    /// Adds the trailing edge.
    public var trailing: ConstraintMakerExtendable { adding(.trailing) }
    /// Adds the width.
    public var width: ConstraintMakerExtendable { adding(.width) }
    /// Adds the height.
    public var height: ConstraintMakerExtendable { adding(.height) }
    /// Adds the horizontal centre.
    public var centerX: ConstraintMakerExtendable { adding(.centerX) }
    /// Adds the vertical centre.
    public var centerY: ConstraintMakerExtendable { adding(.centerY) }
    /// Adds the last baseline.
    public var lastBaseline: ConstraintMakerExtendable { adding(.lastBaseline) }
    /// Adds the first baseline.
    public var firstBaseline: ConstraintMakerExtendable { adding(.firstBaseline) }
    /// Adds the left margin.
    public var leftMargin: ConstraintMakerExtendable { adding(.leftMargin) }
    /// Adds the right margin.
    public var rightMargin: ConstraintMakerExtendable { adding(.rightMargin) }
    /// Adds the top margin.
    public var topMargin: ConstraintMakerExtendable { adding(.topMargin) }
    /// Adds the bottom margin.
    public var bottomMargin: ConstraintMakerExtendable { adding(.bottomMargin) }
    /// Adds the leading margin.
    public var leadingMargin: ConstraintMakerExtendable { adding(.leadingMargin) }
    /// Adds the trailing margin.
    public var trailingMargin: ConstraintMakerExtendable { adding(.trailingMargin) }
    /// Adds the horizontal centre of the margins.
    public var centerXWithinMargins: ConstraintMakerExtendable { adding(.centerXWithinMargins) }
    /// Adds the vertical centre of the margins.
    public var centerYWithinMargins: ConstraintMakerExtendable { adding(.centerYWithinMargins) }
    /// Adds the four edges.
    public var edges: ConstraintMakerExtendable { adding(.edges) }
    /// Adds left and right.
    public var horizontalEdges: ConstraintMakerExtendable { adding(.horizontalEdges) }
    /// Adds top and bottom.
    public var verticalEdges: ConstraintMakerExtendable { adding(.verticalEdges) }
    /// Adds top, leading, bottom and trailing.
    public var directionalEdges: ConstraintMakerExtendable { adding(.directionalEdges) }
    /// Adds leading and trailing.
    public var directionalHorizontalEdges: ConstraintMakerExtendable { adding(.directionalHorizontalEdges) }
    /// Adds top and bottom.
    public var directionalVerticalEdges: ConstraintMakerExtendable { adding(.directionalVerticalEdges) }
    /// Adds width and height.
    public var size: ConstraintMakerExtendable { adding(.size) }
    /// Adds both centres.
    public var center: ConstraintMakerExtendable { adding(.center) }
    /// Adds the four margins.
    public var margins: ConstraintMakerExtendable { adding(.margins) }
    /// Adds top, leading, bottom and trailing margins.
    public var directionalMargins: ConstraintMakerExtendable { adding(.directionalMargins) }
    /// Adds both centres of the margins.
    public var centerWithinMargins: ConstraintMakerExtendable { adding(.centerWithinMargins) }
    /// The original RIBs-todo app's spelling of ``horizontalEdges``.
    public var horizontal: ConstraintMakerExtendable { adding(.horizontalEdges) }
    /// The original RIBs-todo app's spelling of ``verticalEdges``.
    public var vertical: ConstraintMakerExtendable { adding(.verticalEdges) }
}
