import Layout

/// A row or column of views, arranged with constraints as `UIStackView` arranges them.
///
/// ```swift
/// let buttons = StackView(arrangedSubviews: [cancel, save])
/// buttons.axis = .horizontal
/// buttons.spacing = 2
/// buttons.distribution = .fillEqually
/// ```
///
/// The stack makes and owns the constraints between its arranged subviews (identified
/// `UISV-…`, as UIKit's are) and remakes them when the arrangement or a property changes. Hidden
/// arranged subviews are left out, so hiding one closes its gap. Along the axis the arranged
/// views fill the stack; across it, ``alignment`` decides, and a stack that does not fill hugs
/// its biggest view.
open class StackView: View {
    /// How arranged views share the stack's length, as `UIStackView.Distribution`.
    public enum Distribution: Sendable, Hashable {
        /// Fill the length; the view with the lowest hugging priority stretches, the one with the
        /// lowest compression resistance shrinks. Where priorities tie, the index decides, as in
        /// UIKit: the first views keep their intrinsic size and the last of the tied views
        /// stretches or shrinks.
        case fill
        /// Fill the length with views of equal size.
        case fillEqually
        /// Fill the length with sizes in proportion to the views' intrinsic sizes.
        case fillProportionally
        /// Keep intrinsic sizes and make the gaps equal (at least ``spacing``).
        case equalSpacing
        /// Keep intrinsic sizes and make the distances between centres equal.
        case equalCentering
    }

    /// Where arranged views sit across the axis, as `UIStackView.Alignment`.
    public enum Alignment: Sendable, Hashable {
        /// Fill the stack's thickness.
        case fill
        /// Against the leading edge (a vertical stack) or the top (a horizontal one).
        case leading
        /// Centred.
        case center
        /// Against the trailing edge (a vertical stack) or the bottom (a horizontal one).
        case trailing
        /// First baselines lined up (horizontal stacks; `leading` in vertical ones).
        case firstBaseline
        /// Last baselines lined up (horizontal stacks; `trailing` in vertical ones).
        case lastBaseline

        /// The top, in a horizontal stack.
        public static let top = Alignment.leading
        /// The bottom, in a horizontal stack.
        public static let bottom = Alignment.trailing
    }

    /// The views the stack arranges, in order; each is also a subview.
    public private(set) var arrangedSubviews: [View] = []
    /// Whether the views run left to right (leading to trailing) or top to bottom.
    public var axis = LayoutAxis.vertical {
        didSet { if axis != oldValue { setNeedsArrangement() } }
    }
    /// The gap between neighbours (the least gap for ``Distribution/equalSpacing``).
    public var spacing: Double = 0 {
        didSet { if spacing != oldValue { setNeedsArrangement() } }
    }
    /// How the views share the stack's length.
    public var distribution = Distribution.fill {
        didSet { if distribution != oldValue { setNeedsArrangement() } }
    }
    /// Where the views sit across the axis.
    public var alignment = Alignment.fill {
        didSet { if alignment != oldValue { setNeedsArrangement() } }
    }
    /// Whether the views are arranged inside the layout margins instead of the edges.
    public var isLayoutMarginsRelativeArrangement = false {
        didSet { if isLayoutMarginsRelativeArrangement != oldValue { setNeedsArrangement() } }
    }

    private var customSpacing: [ObjectIdentifier: Double] = [:]
    private var managedConstraints: [LayoutConstraint] = []
    private var spacerGuides: [LayoutGuide] = []
    /// The visible arranged views the current constraints were made for.
    private var arrangedFor: [ObjectIdentifier] = []
    /// The views given a place in the order that breaks their priorities' ties
    /// (``Distribution/fill``).
    private var tieOrdered: [View] = []
    private var needsArrangement = true

    /// Creates a stack of `arrangedSubviews` (vertical, filling, no spacing).
    public init(arrangedSubviews views: [View] = []) {
        super.init(frame: .zero)
        for view in views { addArrangedSubview(view) }
    }

    /// Adds `view` at the end of the arrangement, and as a subview.
    public func addArrangedSubview(_ view: View) {
        insertArrangedSubview(view, at: arrangedSubviews.count)
    }

    /// Inserts `view` at `index` in the arrangement (clamped), adding it as a subview.
    public func insertArrangedSubview(_ view: View, at index: Int) {
        arrangedSubviews.removeAll { $0 === view }
        arrangedSubviews.insert(view, at: min(max(0, index), arrangedSubviews.count))
        view.translatesAutoresizingMaskIntoConstraints = false
        if view.superview !== self { addSubview(view) }
        setNeedsArrangement()
    }

    /// Takes `view` out of the arrangement. As in UIKit it stays a subview; call
    /// `removeFromSuperview()` as well to remove it.
    public func removeArrangedSubview(_ view: View) {
        guard arrangedSubviews.contains(where: { $0 === view }) else { return }
        arrangedSubviews.removeAll { $0 === view }
        customSpacing[ObjectIdentifier(view)] = nil
        setNeedsArrangement()
    }

    /// Removing an arranged view from the stack takes it out of the arrangement too.
    open override func willRemoveSubview(_ subview: View) {
        super.willRemoveSubview(subview)
        removeArrangedSubview(subview)
    }

    /// Sets the gap after `view`, instead of ``spacing``.
    public func setCustomSpacing(_ spacing: Double, after view: View) {
        customSpacing[ObjectIdentifier(view)] = spacing
        setNeedsArrangement()
    }

    /// The gap after `view`: its custom spacing, or ``spacing``.
    public func customSpacing(after view: View) -> Double {
        customSpacing[ObjectIdentifier(view)] ?? spacing
    }

    private func setNeedsArrangement() {
        needsArrangement = true
        setNeedsLayout()
    }

    /// Remakes the stack's constraints when the arrangement, a property or a view's
    /// `isHidden` changed.
    open override func layoutSubviews() {
        super.layoutSubviews()
        let visible = arrangedSubviews.filter { !$0.isHidden }
        let identities = visible.map(ObjectIdentifier.init)
        guard needsArrangement || identities != arrangedFor else { return }
        needsArrangement = false
        arrangedFor = identities
        LayoutConstraint.deactivate(managedConstraints)
        for guide in spacerGuides { removeLayoutGuide(guide) }
        spacerGuides = []
        var made = StackArrangement(stack: self, views: visible)
        made.build()
        managedConstraints = made.constraints
        spacerGuides = made.guides
        LayoutConstraint.activate(managedConstraints)
        orderTies(of: visible)
    }

    /// With ``Distribution/fill``, each visible view but the last keeps its intrinsic length
    /// before the views after it when their priorities tie; otherwise no view is ordered.
    private func orderTies(of visible: [View]) {
        let ordered = distribution == .fill ? Array(visible.dropLast()) : []
        for view in tieOrdered where !ordered.contains(where: { $0 === view }) {
            view.setContentPriorityTieOrder(nil, for: .horizontal)
            view.setContentPriorityTieOrder(nil, for: .vertical)
        }
        let across: LayoutAxis = axis == .horizontal ? .vertical : .horizontal
        for (index, view) in ordered.enumerated() {
            view.setContentPriorityTieOrder(index, for: axis)
            view.setContentPriorityTieOrder(nil, for: across)
        }
        tieOrdered = ordered
    }
}
