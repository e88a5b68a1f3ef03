import Layout

/// What `makeConstraints` hands its closure, as SnapKit's `ConstraintMaker`: each attribute
/// starts a chain, `make.top.left.equalToSuperview().inset(1)`.
@MainActor
public final class ConstraintMaker {
    let item: any LayoutItem
    private(set) var descriptions: [ConstraintDescription] = []

    init(item: any LayoutItem) {
        self.item = item
    }

    private func start(_ attributes: ConstraintAttributes) -> ConstraintMakerExtendable {
        let description = ConstraintDescription(item: item, attributes: attributes)
        descriptions.append(description)
        return ConstraintMakerExtendable(description)
    }

    /// Starts a constraint on the item's ``LayoutAttribute/left``.
    public var left: ConstraintMakerExtendable { start(.left) }
    /// Starts a constraint on the item's ``LayoutAttribute/top``.
    public var top: ConstraintMakerExtendable { start(.top) }
    /// Starts a constraint on the item's ``LayoutAttribute/right``.
    public var right: ConstraintMakerExtendable { start(.right) }
    /// Starts a constraint on the item's ``LayoutAttribute/bottom``.
    public var bottom: ConstraintMakerExtendable { start(.bottom) }
    /// Starts a constraint on the item's ``LayoutAttribute/leading``.
    public var leading: ConstraintMakerExtendable { start(.leading) }
    /// Starts a constraint on the item's ``LayoutAttribute/trailing``.
    public var trailing: ConstraintMakerExtendable { start(.trailing) }
    /// Starts a constraint on the item's ``LayoutAttribute/width``.
    public var width: ConstraintMakerExtendable { start(.width) }
    /// Starts a constraint on the item's ``LayoutAttribute/height``.
    public var height: ConstraintMakerExtendable { start(.height) }
    /// Starts a constraint on the item's ``LayoutAttribute/centerX``.
    public var centerX: ConstraintMakerExtendable { start(.centerX) }
    /// Starts a constraint on the item's ``LayoutAttribute/centerY``.
    public var centerY: ConstraintMakerExtendable { start(.centerY) }
    /// Starts a constraint on the item's ``LayoutAttribute/lastBaseline``.
    public var lastBaseline: ConstraintMakerExtendable { start(.lastBaseline) }
    /// Starts a constraint on the item's ``LayoutAttribute/firstBaseline``.
    public var firstBaseline: ConstraintMakerExtendable { start(.firstBaseline) }
    /// Starts a constraint on the item's ``LayoutAttribute/leftMargin``.
    public var leftMargin: ConstraintMakerExtendable { start(.leftMargin) }
    /// Starts a constraint on the item's ``LayoutAttribute/rightMargin``.
    public var rightMargin: ConstraintMakerExtendable { start(.rightMargin) }
    /// Starts a constraint on the item's ``LayoutAttribute/topMargin``.
    public var topMargin: ConstraintMakerExtendable { start(.topMargin) }
    /// Starts a constraint on the item's ``LayoutAttribute/bottomMargin``.
    public var bottomMargin: ConstraintMakerExtendable { start(.bottomMargin) }
    /// Starts a constraint on the item's ``LayoutAttribute/leadingMargin``.
    public var leadingMargin: ConstraintMakerExtendable { start(.leadingMargin) }
    /// Starts a constraint on the item's ``LayoutAttribute/trailingMargin``.
    public var trailingMargin: ConstraintMakerExtendable { start(.trailingMargin) }
    /// Starts a constraint on the item's ``LayoutAttribute/centerXWithinMargins``.
    public var centerXWithinMargins: ConstraintMakerExtendable { start(.centerXWithinMargins) }
    /// Starts a constraint on the item's ``LayoutAttribute/centerYWithinMargins``.
    public var centerYWithinMargins: ConstraintMakerExtendable { start(.centerYWithinMargins) }
    /// Top, left, bottom and right.
    public var edges: ConstraintMakerExtendable { start(.edges) }
    /// Left and right.
    public var horizontalEdges: ConstraintMakerExtendable { start(.horizontalEdges) }
    /// Top and bottom.
    public var verticalEdges: ConstraintMakerExtendable { start(.verticalEdges) }
    /// Top, leading, bottom and trailing.
    public var directionalEdges: ConstraintMakerExtendable { start(.directionalEdges) }
    /// Leading and trailing.
    public var directionalHorizontalEdges: ConstraintMakerExtendable { start(.directionalHorizontalEdges) }
    /// Top and bottom.
    public var directionalVerticalEdges: ConstraintMakerExtendable { start(.directionalVerticalEdges) }
    /// Width and height.
    public var size: ConstraintMakerExtendable { start(.size) }
    /// Both centres.
    public var center: ConstraintMakerExtendable { start(.center) }
    /// The four margins.
    public var margins: ConstraintMakerExtendable { start(.margins) }
    /// Top, leading, bottom and trailing margins.
    public var directionalMargins: ConstraintMakerExtendable { start(.directionalMargins) }
    /// Both centres of the margins.
    public var centerWithinMargins: ConstraintMakerExtendable { start(.centerWithinMargins) }

    /// The original RIBs-todo app's spelling of ``horizontalEdges``.
    public var horizontal: ConstraintMakerExtendable { start(.horizontalEdges) }
    /// The original RIBs-todo app's spelling of ``verticalEdges``.
    public var vertical: ConstraintMakerExtendable { start(.verticalEdges) }

    /// The made constraints, or the first misuse found in any chain.
    func makeConstraints() -> Result<[NDLConstraint], LayoutError> {
        var made: [NDLConstraint] = []
        for description in descriptions {
            guard let constraint = description.constraint else { continue }
            if let error = constraint.error { return .failure(error) }
            made.append(constraint)
        }
        return .success(made)
    }
}
