import Layout

/// The constraints a ``StackView`` makes for its visible arranged views, named as UIKit names
/// them (`UISV-canvas-connection`, `UISV-spacing`, …) so that conflict reports read the same.
@MainActor
struct StackArrangement {
    let stack: StackView
    let views: [View]
    private(set) var constraints: [LayoutConstraint] = []
    private(set) var guides: [LayoutGuide] = []

    init(stack: StackView, views: [View]) {
        self.stack = stack
        self.views = views
    }

    private var container: any LayoutItem {
        stack.isLayoutMarginsRelativeArrangement ? stack.layoutMarginsGuide : stack
    }

    /// The attributes along the axis and across it.
    private var along:
        (start: LayoutAttribute, end: LayoutAttribute, size: LayoutAttribute, center: LayoutAttribute)
    {
        stack.axis == .horizontal
            ? (.leading, .trailing, .width, .centerX) : (.top, .bottom, .height, .centerY)
    }

    private var across:
        (start: LayoutAttribute, end: LayoutAttribute, size: LayoutAttribute, center: LayoutAttribute)
    {
        stack.axis == .horizontal
            ? (.top, .bottom, .height, .centerY) : (.leading, .trailing, .width, .centerX)
    }

    mutating func build() {
        guard let first = views.first, let last = views.last else {
            // An empty stack shrinks to nothing unless something else sizes it.
            add(stack, .width, .equal, nil, nil, priority: .fittingSizeLevel, "UISV-empty")
            add(stack, .height, .equal, nil, nil, priority: .fittingSizeLevel, "UISV-empty")
            return
        }
        add(first, along.start, .equal, container, along.start, "UISV-canvas-connection")
        add(last, along.end, .equal, container, along.end, "UISV-canvas-connection")
        buildDistribution()
        buildAlignment()
    }

    // MARK: Along the axis

    private mutating func buildDistribution() {
        let pairs = zip(views, views.dropFirst())
        switch stack.distribution {
        case .fill, .fillEqually, .fillProportionally:
            for (previous, next) in pairs {
                add(
                    next, along.start, .equal, previous, along.end,
                    constant: stack.customSpacing(after: previous),
                    "UISV-spacing")
            }
            if stack.distribution == .fillEqually {
                for view in views.dropFirst() {
                    add(view, along.size, .equal, views[0], along.size, "UISV-fill-equally")
                }
            } else if stack.distribution == .fillProportionally {
                buildProportions()
            }
        case .equalSpacing, .equalCentering:
            let centering = stack.distribution == .equalCentering
            for (previous, next) in pairs {
                add(
                    next, along.start, .greaterThanOrEqual, previous, along.end,
                    constant: stack.customSpacing(after: previous), "UISV-spacing")
                let gap = LayoutGuide()
                gap.identifier = centering ? "UISV-distributing-center" : "UISV-distributing-edge"
                stack.addLayoutGuide(gap)
                guides.append(gap)
                add(
                    gap, along.start, .equal, previous, centering ? along.center : along.end,
                    "UISV-distributing")
                add(gap, along.end, .equal, next, centering ? along.center : along.start, "UISV-distributing")
            }
            for gap in guides.dropFirst() {
                add(gap, along.size, .equal, guides[0], along.size, "UISV-distributing-equal")
            }
        }
    }

    /// Each view's share of the length (after the gaps) in proportion to its intrinsic size, as
    /// `.fillProportionally` does; views without an intrinsic size get an equal share.
    private mutating func buildProportions() {
        let sizes = views.map { view -> Double in
            let size = view.intrinsicContentSize
            let value = stack.axis == .horizontal ? size.width : size.height
            return value > 0 ? value : 0
        }
        let total: Double = sizes.reduce(0.0, +)
        var gaps = 0.0
        for view in views.dropLast() { gaps += stack.customSpacing(after: view) }
        for (view, size) in zip(views, sizes) {
            let share: Double = total > 0 ? size / total : 1 / Double(views.count)
            add(
                view, along.size, .equal, container, along.size, multiplier: share, constant: -gaps * share,
                priority: LayoutPriority(999), "UISV-fill-proportionally")
        }
    }

    // MARK: Across the axis

    private mutating func buildAlignment() {
        var alignment = stack.alignment
        if stack.axis == .vertical {
            // Baselines line up only side by side.
            if alignment == .firstBaseline { alignment = .leading }
            if alignment == .lastBaseline { alignment = .trailing }
        }
        for view in views {
            switch alignment {
            case .fill:
                add(view, across.start, .equal, container, across.start, "UISV-alignment")
                add(view, across.end, .equal, container, across.end, "UISV-alignment")
            case .leading:
                add(view, across.start, .equal, container, across.start, "UISV-alignment")
                add(view, across.end, .lessThanOrEqual, container, across.end, "UISV-spanning-boundary")
            case .trailing:
                add(view, across.end, .equal, container, across.end, "UISV-alignment")
                add(
                    view, across.start, .greaterThanOrEqual, container, across.start, "UISV-spanning-boundary"
                )
            case .center:
                add(view, across.center, .equal, container, across.center, "UISV-alignment")
                add(
                    view, across.start, .greaterThanOrEqual, container, across.start, "UISV-spanning-boundary"
                )
            case .firstBaseline, .lastBaseline:
                let baseline: LayoutAttribute = alignment == .firstBaseline ? .firstBaseline : .lastBaseline
                if view !== views[0] { add(view, baseline, .equal, views[0], baseline, "UISV-alignment") }
                add(
                    view, across.start, .greaterThanOrEqual, container, across.start, "UISV-spanning-boundary"
                )
                add(view, across.end, .lessThanOrEqual, container, across.end, "UISV-spanning-boundary")
            }
        }
        if alignment != .fill {
            // Hug the thickest view, as UIStackView's spanning guide does.
            add(stack, across.size, .equal, nil, nil, priority: .fittingSizeLevel, "UISV-spanning-fit")
        }
    }

    private mutating func add(
        _ item: any LayoutItem, _ attribute: LayoutAttribute, _ relation: LayoutConstraint.Relation,
        _ other: (any LayoutItem)?,
        _ otherAttribute: LayoutAttribute?, multiplier: Double = 1, constant: Double = 0,
        priority: LayoutPriority = .required, _ identifier: String
    ) {
        constraints.append(
            LayoutConstraint(
                item: item, attribute: attribute, relatedBy: relation, toItem: other,
                attribute: otherAttribute,
                multiplier: multiplier, constant: constant, priority: priority, identifier: identifier))
    }
}
