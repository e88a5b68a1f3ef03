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

    /// The left edge.
    public var left: ConstraintMakerExtendable { start(.left) }
    /// The top edge.
    public var top: ConstraintMakerExtendable { start(.top) }
    /// The right edge.
    public var right: ConstraintMakerExtendable { start(.right) }
    /// The bottom edge.
    public var bottom: ConstraintMakerExtendable { start(.bottom) }
    /// The leading edge.
    public var leading: ConstraintMakerExtendable { start(.leading) }
    /// The trailing edge.
    public var trailing: ConstraintMakerExtendable { start(.trailing) }
    /// The width.
    public var width: ConstraintMakerExtendable { start(.width) }
    /// The height.
    public var height: ConstraintMakerExtendable { start(.height) }
    /// The horizontal centre.
    public var centerX: ConstraintMakerExtendable { start(.centerX) }
    /// The vertical centre.
    public var centerY: ConstraintMakerExtendable { start(.centerY) }
    /// The last baseline.
    public var lastBaseline: ConstraintMakerExtendable { start(.lastBaseline) }
    /// The first baseline.
    public var firstBaseline: ConstraintMakerExtendable { start(.firstBaseline) }
    /// The left margin.
    public var leftMargin: ConstraintMakerExtendable { start(.leftMargin) }
    /// The right margin.
    public var rightMargin: ConstraintMakerExtendable { start(.rightMargin) }
    /// The top margin.
    public var topMargin: ConstraintMakerExtendable { start(.topMargin) }
    /// The bottom margin.
    public var bottomMargin: ConstraintMakerExtendable { start(.bottomMargin) }
    /// The leading margin.
    public var leadingMargin: ConstraintMakerExtendable { start(.leadingMargin) }
    /// The trailing margin.
    public var trailingMargin: ConstraintMakerExtendable { start(.trailingMargin) }
    /// The horizontal centre of the margins.
    public var centerXWithinMargins: ConstraintMakerExtendable { start(.centerXWithinMargins) }
    /// The vertical centre of the margins.
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
