import ConstraintSolver

extension View {
    /// The value of an intrinsic dimension a view does not have, as `UIView.noIntrinsicMetric`.
    nonisolated public static let noIntrinsicMetric: Double = -1

    // MARK: Layout passes

    /// Marks the view's tree for layout at the next ``layoutIfNeeded()``, and this view for a
    /// ``layoutSubviews()`` call in it.
    public func setNeedsLayout() {
        needsLayout = true
        rootView.needsLayout = true
    }

    /// Lays out the whole tree this view belongs to, if anything changed: solves the
    /// constraints, sets every frame, then calls ``layoutSubviews()`` where sizes changed.
    ///
    /// Never throws and never crashes: a required constraint that cannot hold is broken, as Auto
    /// Layout breaks one, and logged; the details are in ``layoutReport``.
    public func layoutIfNeeded() {
        let root = rootView
        guard root.needsLayout || root.engine == nil else { return }
        let engine = root.engine ?? LayoutEngine(root: root)
        root.engine = engine
        engine.layout()
    }

    /// Lays out the tree like ``layoutIfNeeded()``, then throws the first required conflict or
    /// misuse of the last layout, if any.
    public func solveLayout() throws(LayoutError) {
        layoutIfNeeded()
        if let error = layoutReport.errors.first { throw error }
    }

    /// The strength of the edit variables that hold a root view's frame, and the frames of views
    /// placed by their frames: level 1,000. Every optional priority, 999.9 too, is a level below
    /// it, and the solver settles a level before it looks at lower ones, so no number of optional
    /// constraints can move a root's frame, as a window's size is not negotiable in UIKit (a
    /// weight shared with them, however large, would only raise the number that does). Below
    /// required, so that required constraints that cannot fit in the frame still move it and
    /// the report says so.
    nonisolated package static let rootFrameStrength = Strength(level: 1_000)

    /// The solver constraints of the last layout of this view's tree, as kiwi's `dump` lists
    /// them, for tools and benchmarks that solve the same system elsewhere. The root's
    /// ``layoutVariables`` are edit variables at ``rootFrameStrength``.
    package var solverConstraints: [Constraint] { rootView.engine?.solverConstraints ?? [] }

    /// The edit variables of the last layout of this view's tree, with their strengths and the
    /// values last suggested: the root's frame and the frames of views placed by them. With
    /// ``solverConstraints`` it is the whole system the solver holds.
    package var solverEdits: [SolverEdit] { rootView.engine?.solverEdits ?? [] }

    /// The solver of this view's tree, once it has been laid out, for tests.
    package var layoutSolver: Solver? { rootView.engine?.solver }

    /// What the last layout of this view's tree broke or skipped.
    public var layoutReport: LayoutReport { rootView.engine?.report ?? LayoutReport() }

    // MARK: Intrinsic content size

    /// Tells the engine that ``intrinsicContentSize`` changed.
    public func invalidateIntrinsicContentSize() {
        contentSizeConstraints = nil
        // A view placed by its frame has no size constraints to replace, as in UIKit.
        if !translatesAutoresizingMaskIntoConstraints { setNeedsConstraintUpdate() }
    }

    /// How much the view resists growing beyond its intrinsic size along `axis` (250 by default).
    public func contentHuggingPriority(for axis: LayoutAxis) -> LayoutPriority {
        huggingPriorities[axis] ?? .defaultLow
    }

    /// Sets how much the view resists growing beyond its intrinsic size along `axis`.
    public func setContentHuggingPriority(_ priority: LayoutPriority, for axis: LayoutAxis) {
        huggingPriorities[axis] = priority
        invalidateIntrinsicContentSize()
    }

    /// How much the view resists shrinking below its intrinsic size along `axis` (750 by default).
    public func contentCompressionResistancePriority(for axis: LayoutAxis) -> LayoutPriority {
        compressionPriorities[axis] ?? .defaultHigh
    }

    /// Sets how much the view resists shrinking below its intrinsic size along `axis`.
    public func setContentCompressionResistancePriority(_ priority: LayoutPriority, for axis: LayoutAxis) {
        compressionPriorities[axis] = priority
        invalidateIntrinsicContentSize()
    }

    /// Orders this view among views whose content priorities tie, along `axis`: with `order`
    /// 0 it keeps its intrinsic size before every view with a higher order, and before every
    /// view with no order, when they hug (or resist compression) at the same priority. `nil`
    /// takes the view out of the order. This is how a filling `StackView` (HeadlessUI) resolves a
    /// tie by the index of its arranged views, as UIKit's does.
    ///
    /// The order adds the view's intrinsic size once more at a priority a hair below its own,
    /// `order + 1` thousandths lower, so it only decides what the priorities leave open.
    package func setContentPriorityTieOrder(_ order: Int?, for axis: LayoutAxis) {
        guard contentPriorityTieOrders[axis] != order else { return }
        contentPriorityTieOrders[axis] = order
        invalidateIntrinsicContentSize()
    }

    // MARK: Baselines

    // MARK: Layout direction

    /// The view's own layout direction, or `nil` (the default) to inherit its superview's.
    public var semanticLayoutDirection: LayoutDirection? {
        get { ownDirection }
        set {
            ownDirection = newValue
            setNeedsConstraintUpdate()
        }
    }

    /// The direction leading and trailing follow: the nearest one set on this view or an
    /// ancestor, else ``defaultLayoutDirection``.
    public var effectiveUserInterfaceLayoutDirection: LayoutDirection {
        var view: View? = self
        while let current = view {
            if let direction = current.ownDirection { return direction }
            view = current.superview
        }
        return View.defaultLayoutDirection
    }

    /// The direction of trees that set none, as SnapKit's
    /// `ConstraintConfig.interfaceLayoutDirection`.
    public static var defaultLayoutDirection: LayoutDirection {
        get { defaultDirectionStorage }
        set { defaultDirectionStorage = newValue }
    }

    // MARK: Margins

    /// The space inside the edges that margin attributes keep to (8 on every side by default,
    /// as in UIKit).
    public var layoutMargins: EdgeInsets {
        get { layoutMarginsStorage }
        set {
            guard newValue != layoutMarginsStorage else { return }
            layoutMarginsStorage = newValue
            marginsGuide?.updateInsets(newValue)
        }
    }

    /// ``layoutMargins`` with leading and trailing in the view's layout direction.
    public var directionalLayoutMargins: DirectionalEdgeInsets {
        get {
            let margins = layoutMarginsStorage
            return effectiveUserInterfaceLayoutDirection == .leftToRight
                ? DirectionalEdgeInsets(
                    top: margins.top, leading: margins.left, bottom: margins.bottom, trailing: margins.right)
                : DirectionalEdgeInsets(
                    top: margins.top, leading: margins.right, bottom: margins.bottom, trailing: margins.left)
        }
        set { layoutMargins = newValue.resolved(in: effectiveUserInterfaceLayoutDirection) }
    }

    /// A guide for the view's bounds inset by ``layoutMargins``.
    public var layoutMarginsGuide: LayoutGuide {
        if let marginsGuide { return marginsGuide }
        let guide = LayoutGuide(kind: .margins, owner: self)
        guide.identifier = "UIViewLayoutMarginsGuide"
        marginsGuide = guide
        guide.updateInsets(layoutMarginsStorage)
        return guide
    }

    // MARK: Safe area

    /// Extra insets added to the safe area, as `UIViewController.additionalSafeAreaInsets`. A
    /// window sets it on its root view for the rows a terminal keeps for itself.
    public var additionalSafeAreaInsets: EdgeInsets {
        get { extraSafeInsets }
        set {
            extraSafeInsets = newValue
            setNeedsLayout()
        }
    }

    /// How far the safe area is inside the view's edges: the part of the superview's safe area
    /// that does not cover the view, plus ``additionalSafeAreaInsets``. Current as of the last
    /// layout.
    public var safeAreaInsets: EdgeInsets {
        guard let superview else { return extraSafeInsets }
        let parentSafe = superview.bounds.inset(by: superview.safeAreaInsets)
            .offsetBy(dx: -storedFrame.minX, dy: -storedFrame.minY)
        let size = storedFrame.size
        let overlap = EdgeInsets(
            top: min(size.height, max(0, parentSafe.minY)), left: min(size.width, max(0, parentSafe.minX)),
            bottom: min(size.height, max(0, size.height - parentSafe.maxY)),
            right: min(size.width, max(0, size.width - parentSafe.maxX)))
        return EdgeInsets(
            top: overlap.top + extraSafeInsets.top, left: overlap.left + extraSafeInsets.left,
            bottom: overlap.bottom + extraSafeInsets.bottom, right: overlap.right + extraSafeInsets.right)
    }

    /// A guide for the part of the view not covered by anything the app should keep clear of.
    public var safeAreaLayoutGuide: LayoutGuide {
        if let safeAreaGuide { return safeAreaGuide }
        let guide = LayoutGuide(kind: .safeArea, owner: self)
        guide.identifier = "UIViewSafeAreaLayoutGuide"
        safeAreaGuide = guide
        guide.updateInsets(safeAreaInsets)
        return guide
    }

    // MARK: The engine's own constraints

    /// Auto Layout's four required equalities for a view placed at `frame`. The engine holds
    /// such a frame as edit variables instead (see `FramePlacement`); these name a frame that
    /// had to give way, in reports.
    func makeAutoresizingConstraints(for frame: Rect) -> [LayoutConstraint] {
        guard let superview else { return [] }
        return [
            (LayoutAttribute.left, superview as View?, LayoutAttribute.left, frame.minX),
            (.top, superview, .top, frame.minY), (.width, nil, nil, frame.width),
            (.height, nil, nil, frame.height),
        ].map { attribute, other, otherAttribute, constant in
            LayoutConstraint(
                item: self, attribute: attribute, relatedBy: .equal, toItem: other, attribute: otherAttribute,
                multiplier: 1, constant: constant, priority: .required,
                identifier: "NSAutoresizingMaskLayoutConstraint", location: nil, origin: .autoresizing)
        }
    }

    func makeContentSizeConstraints() -> [LayoutConstraint] {
        let size = intrinsicContentSize
        var made: [LayoutConstraint] = []
        for (attribute, value, axis) in [
            (LayoutAttribute.width, size.width, LayoutAxis.horizontal), (.height, size.height, .vertical),
        ] where value >= 0 && value.isFinite {
            made.append(
                LayoutConstraint(
                    item: self, attribute: attribute, relatedBy: .lessThanOrEqual, toItem: nil,
                    attribute: nil,
                    multiplier: 1, constant: value, priority: contentHuggingPriority(for: axis),
                    identifier: "NSContentSizeLayoutConstraint(hugging)", location: nil, origin: .contentSize)
            )
            made.append(
                LayoutConstraint(
                    item: self, attribute: attribute, relatedBy: .greaterThanOrEqual, toItem: nil,
                    attribute: nil, multiplier: 1, constant: value,
                    priority: contentCompressionResistancePriority(for: axis),
                    identifier: "NSContentSizeLayoutConstraint(compression)", location: nil,
                    origin: .contentSize))
            if let order = contentPriorityTieOrders[axis] {
                let step = Double(order + 1) / 1_000
                for (relation, priority) in [
                    (Relation.lessThanOrEqual, contentHuggingPriority(for: axis)),
                    (.greaterThanOrEqual, contentCompressionResistancePriority(for: axis)),
                ] where !priority.isRequired {
                    made.append(
                        LayoutConstraint(
                            item: self, attribute: attribute, relatedBy: relation, toItem: nil,
                            attribute: nil,
                            multiplier: 1, constant: value,
                            priority: LayoutPriority(priority.rawValue - step),
                            identifier: "NSContentSizeLayoutConstraint(tie order \(order))", location: nil,
                            origin: .contentSize))
                }
            }
        }
        return made
    }

    /// Every constraint the engine adds for this view on its own: the intrinsic size of a view
    /// that uses constraints, and its guides' edges. (The frame of one that does not is the
    /// engine's edit variables; see `FramePlacement`.)
    func engineConstraints() -> [LayoutConstraint] {
        var result: [LayoutConstraint] = []
        if superview != nil && !translatesAutoresizingMaskIntoConstraints {
            let sizeConstraints = contentSizeConstraints ?? makeContentSizeConstraints()
            contentSizeConstraints = sizeConstraints
            result += sizeConstraints
        }
        if let marginsGuide { result += marginsGuide.edgeConstraints }
        if let safeAreaGuide { result += safeAreaGuide.edgeConstraints }
        return result
    }
}

@MainActor private var defaultDirectionStorage = LayoutDirection.leftToRight
