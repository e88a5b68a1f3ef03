/// A rectangle in a tree of views, laid out by constraints: the `UIView` of Ribcage's layout.
///
/// ```swift
/// let screen = View(frame: Rect(x: 0, y: 0, width: 80, height: 24))
/// let title = View()
/// screen.addSubview(title)
/// try title.ndl.makeConstraints { make in
///     make.top.leading.trailing.equalToSuperview().inset(1)
///     make.height.equalTo(1)
/// }
/// screen.layoutIfNeeded()      // title.frame == (1, 1, 78x1)
/// ```
///
/// The root of a tree (a view without a superview) keeps its ``frame`` as you set it; every
/// other view gets its frame from the solver. A view whose
/// ``translatesAutoresizingMaskIntoConstraints`` is `true` (the default, as in UIKit, until the
/// `ndl` DSL constrains it) keeps the frame you give it too. Views and constraints belong to
/// the main actor.
@MainActor
open class View: LayoutItem, @MainActor CustomStringConvertible {
    /// The solver's unknowns for this view.
    public let layoutVariables: LayoutVariables
    /// A name for descriptions and diagnostics.
    public var accessibilityIdentifier: String?

    /// The view this one is a subview of.
    public private(set) weak var superview: View?
    /// The subviews, back to front.
    public private(set) var subviews: [View] = []
    /// The guides added with ``addLayoutGuide(_:)``.
    public private(set) var layoutGuides: [LayoutGuide] = []

    /// Whether the view is skipped when drawing. Hidden views are still laid out, as in UIKit;
    /// a change asks the superview for ``layoutSubviews()``, so that a container such as a stack
    /// view can collapse or restore the view.
    public var isHidden = false {
        didSet { if isHidden != oldValue { superview?.setNeedsLayout() } }
    }

    /// Whether the view's frame is turned into constraints, so it stays where it is set. The
    /// `ndl` DSL sets this to `false`, as SnapKit does.
    public var translatesAutoresizingMaskIntoConstraints = true {
        didSet { if translatesAutoresizingMaskIntoConstraints != oldValue { setNeedsConstraintUpdate() } }
    }

    var storedFrame: Rect
    /// Constraints whose first item is this view or one of its guides.
    var heldConstraints: [ObjectIdentifier: LayoutConstraint] = [:]
    /// Constraints held elsewhere whose second item is this view or one of its guides.
    var referencingConstraints: [ObjectIdentifier: LayoutConstraint] = [:]
    var engine: LayoutEngine?
    var needsLayout = true
    /// The layout direction resolved by the engine's last walk of the tree.
    var resolvedDirection: LayoutDirection = .leftToRight
    /// The engine pass that last saw this view, to tell members of a tree in O(1).
    var passToken = 0

    var contentSizeConstraints: [LayoutConstraint]?
    var layoutMarginsStorage = EdgeInsets(all: 8)
    /// What the `ndl` DSL (LayoutDSL) keeps with the view: the constraints it made, for its
    /// `remakeConstraints`, `updateConstraints` and `removeConstraints`, as SnapKit keeps them
    /// in an associated object of a `UIView`.
    package var ndlStorage: AnyObject?
    var ownDirection: LayoutDirection?
    var extraSafeInsets = EdgeInsets.zero
    var marginsGuide: LayoutGuide?
    var safeAreaGuide: LayoutGuide?
    var huggingPriorities: [LayoutAxis: LayoutPriority] = [:]
    var compressionPriorities: [LayoutAxis: LayoutPriority] = [:]
    /// This view's place in the order that breaks ties of its content priorities, by axis (see
    /// ``setContentPriorityTieOrder(_:for:)``).
    var contentPriorityTieOrders: [LayoutAxis: Int] = [:]

    /// Creates a view with `frame` (in its superview's coordinates).
    public init(frame: Rect = .zero) {
        storedFrame = frame
        layoutVariables = LayoutVariables(name: "\(type(of: self))")
    }

    // MARK: Geometry

    /// The rectangle in the superview's coordinates. Set it on a root view, or on a view that
    /// translates its frame into constraints; other views get theirs from the solver.
    public var frame: Rect {
        get { storedFrame }
        set {
            guard newValue != storedFrame else { return }
            storedFrame = newValue
            if superview == nil {
                needsLayout = true
            } else if translatesAutoresizingMaskIntoConstraints {
                // The engine suggests the new frame to its edit variables at the next layout.
                rootView.needsLayout = true
            }
        }
    }

    /// The view's own rectangle: its size at the origin.
    public var bounds: Rect { Rect(origin: .zero, size: storedFrame.size) }

    /// The centre of ``frame``.
    public var center: Point { Point(x: storedFrame.midX, y: storedFrame.midY) }

    /// The view's own bounds, as a layout item.
    public var layoutFrame: Rect { bounds }

    /// This view.
    public var owningView: View? { self }

    /// `Type:identifier`, or `Type:0x…` when there is no identifier, as SnapKit names items.
    public var layoutDebugName: String {
        "\(type(of: self)):" + (accessibilityIdentifier ?? shortIdentity(self))
    }

    /// The type, identifier and frame.
    open var description: String { "<\(layoutDebugName) frame=\(frame)>" }

    /// Converts `point` from this view's coordinates to `view`'s (or to the root's when `nil`).
    public func convert(_ point: Point, to view: View?) -> Point {
        let mine = originInRoot()
        let theirs = view?.originInRoot() ?? .zero
        return Point(x: point.x + mine.x - theirs.x, y: point.y + mine.y - theirs.y)
    }

    /// Converts `rect` from this view's coordinates to `view`'s (or to the root's when `nil`).
    public func convert(_ rect: Rect, to view: View?) -> Rect {
        Rect(origin: convert(rect.origin, to: view), size: rect.size)
    }

    /// The view's origin in its root's coordinates.
    func originInRoot() -> Point {
        var point = Point.zero
        var view: View? = self
        while let current = view, let parent = current.superview {
            point.x += current.storedFrame.origin.x
            point.y += current.storedFrame.origin.y
            view = parent
        }
        return point
    }

    // MARK: Overridable layout

    /// Called after the solver set the frames when the view's size changed or
    /// ``setNeedsLayout()`` asked for it. Subclasses override it to lay out what constraints do
    /// not (a list materialising its visible rows, say). Changes made here are solved in the
    /// same ``layoutIfNeeded()``.
    open func layoutSubviews() {}

    /// The size the content wants, or ``noIntrinsicMetric`` in a dimension it has no opinion
    /// about. Subclasses override it and call ``invalidateIntrinsicContentSize()`` when it
    /// changes.
    open var intrinsicContentSize: Size {
        Size(width: View.noIntrinsicMetric, height: View.noIntrinsicMetric)
    }

    /// The first baseline's distance from the top, or `nil` to use the bottom edge (views without
    /// text). Text views override it.
    open var firstBaselineOffsetFromTop: Double? { nil }

    /// The last baseline's distance from the bottom edge (0 for views without text).
    open var lastBaselineOffsetFromBottom: Double { 0 }

    // MARK: Hierarchy

    /// The topmost ancestor: the view whose engine lays out this tree.
    public var rootView: View {
        var view = self
        while let parent = view.superview { view = parent }
        return view
    }

    /// Whether this view is `view` or one of its descendants.
    public func isDescendant(of view: View) -> Bool {
        var current: View? = self
        while let candidate = current {
            if candidate === view { return true }
            current = candidate.superview
        }
        return false
    }

    /// Adds `view` in front of the other subviews, moving it from its old superview.
    ///
    /// Adding an ancestor of this view (or the view itself) would make a cycle; it is refused and
    /// logged, and the tree is left unchanged.
    public func addSubview(_ view: View) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` at `index` among the subviews (clamped to the valid range).
    public func insertSubview(_ view: View, at index: Int) {
        guard !isDescendant(of: view) else {
            LayoutLog.misuse(.hierarchyCycle(parent: layoutDebugName, child: view.layoutDebugName))
            return
        }
        if view.superview === self, let current = subviews.firstIndex(where: { $0 === view }) {
            subviews.remove(at: current)
            subviews.insert(view, at: min(max(0, index), subviews.count))
            return
        }
        view.willMove(toSuperview: self)
        view.detachFromSuperview()
        view.engine = nil
        subviews.insert(view, at: min(max(0, index), subviews.count))
        view.superview = self
        setNeedsConstraintUpdate()
        setNeedsLayout()
        view.didMoveToSuperview()
        didAddSubview(view)
    }

    /// Inserts `view` just above `sibling`.
    public func insertSubview(_ view: View, aboveSubview sibling: View) {
        let index = subviews.firstIndex { $0 === sibling }.map { $0 + 1 } ?? subviews.count
        insertSubview(view, at: index)
    }

    /// Inserts `view` just below `sibling`.
    public func insertSubview(_ view: View, belowSubview sibling: View) {
        insertSubview(view, at: subviews.firstIndex { $0 === sibling } ?? 0)
    }

    /// Moves `view` in front of its siblings.
    public func bringSubviewToFront(_ view: View) {
        guard view.superview === self else { return }
        insertSubview(view, at: subviews.count)
    }

    /// Moves `view` behind its siblings.
    public func sendSubviewToBack(_ view: View) {
        guard view.superview === self else { return }
        insertSubview(view, at: 0)
    }

    /// Removes the view from its superview, and, as UIKit does, deactivates every constraint
    /// between this subtree and views outside it.
    public func removeFromSuperview() {
        guard superview != nil else { return }
        willMove(toSuperview: nil)
        detachFromSuperview()
        didMoveToSuperview()
    }

    private func detachFromSuperview() {
        guard let parent = superview else { return }
        parent.willRemoveSubview(self)
        parent.setNeedsConstraintUpdate()
        deactivateConstraintsLeaving(subtree: self)
        parent.subviews.removeAll { $0 === self }
        superview = nil
        needsLayout = true
    }

    private func deactivateConstraintsLeaving(subtree: View) {
        var crossing: [LayoutConstraint] = []
        visit { view in
            for constraint in view.heldConstraints.values.lazy.filter({ $0.origin == .user })
            where constraint.secondItem?.owningView.map({ !$0.isDescendant(of: subtree) }) ?? false {
                crossing.append(constraint)
            }
            for constraint in view.referencingConstraints.values
            where constraint.firstItem?.owningView.map({ !$0.isDescendant(of: subtree) }) ?? false {
                crossing.append(constraint)
            }
        }
        LayoutConstraint.deactivate(crossing)
    }

    /// Calls `body` on this view and every descendant, parents first.
    func visit(_ body: (View) -> Void) {
        body(self)
        for subview in subviews { subview.visit(body) }
    }

    /// Called just before the view moves to `newSuperview` (`nil` when removed). Subclasses may
    /// override it; the default does nothing.
    open func willMove(toSuperview newSuperview: View?) {}

    /// Called just after the view moved to a new superview or was removed. Subclasses may
    /// override it; the default does nothing.
    open func didMoveToSuperview() {}

    /// Called just after `subview` was added to this view. Subclasses may override it; the
    /// default does nothing.
    open func didAddSubview(_ subview: View) {}

    /// Called just before `subview` is removed from this view, or moved to another. Subclasses
    /// may override it; the default does nothing.
    open func willRemoveSubview(_ subview: View) {}

    // MARK: Guides

    /// Adds a guide that constraints can position, as `UIView.addLayoutGuide(_:)`.
    public func addLayoutGuide(_ guide: LayoutGuide) {
        guard guide.owningView !== self else { return }
        guide.owningView?.removeLayoutGuide(guide)
        guide.owningView = self
        layoutGuides.append(guide)
        setNeedsConstraintUpdate()
    }

    /// Removes a guide and the constraints that use it.
    public func removeLayoutGuide(_ guide: LayoutGuide) {
        guard guide.owningView === self else { return }
        let using =
            heldConstraints.values.filter { $0.firstItem === guide || $0.secondItem === guide }
            + referencingConstraints.values.filter { $0.secondItem === guide }
        LayoutConstraint.deactivate(using)
        layoutGuides.removeAll { $0 === guide }
        guide.owningView = nil
        setNeedsConstraintUpdate()
    }

    // MARK: Constraints

    /// The active constraints this view holds: those whose first item is the view or one of its
    /// guides, including the ones the `ndl` DSL made.
    public var constraints: [LayoutConstraint] {
        heldConstraints.values.filter { $0.origin == .user }
    }

    func hold(_ constraint: LayoutConstraint) {
        heldConstraints[ObjectIdentifier(constraint)] = constraint
        setNeedsConstraintUpdate()
    }

    func release(_ constraint: LayoutConstraint) {
        heldConstraints[ObjectIdentifier(constraint)] = nil
        setNeedsConstraintUpdate()
    }

    func reference(_ constraint: LayoutConstraint) {
        referencingConstraints[ObjectIdentifier(constraint)] = constraint
    }

    func dereference(_ constraint: LayoutConstraint) {
        referencingConstraints[ObjectIdentifier(constraint)] = nil
    }

    /// Tells the tree's engine that its constraint set changed.
    func setNeedsConstraintUpdate() {
        rootView.engine?.needsConstraintUpdate = true
        rootView.needsLayout = true
    }
}

func shortIdentity(_ object: AnyObject) -> String {
    "0x" + String(UInt(bitPattern: ObjectIdentifier(object).hashValue) & 0xFFFFFF, radix: 16)
}
