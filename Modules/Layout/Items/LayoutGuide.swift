/// A rectangle that takes part in layout without drawing anything, as `UILayoutGuide`: spacing
/// between views, or a region such as the margins or the safe area.
///
/// ```swift
/// let gap = LayoutGuide()
/// container.addLayoutGuide(gap)
/// try gap.ndl.makeConstraints { make in make.width.equalTo(2) }
/// ```
@MainActor
public final class LayoutGuide: LayoutItem, @MainActor CustomStringConvertible {
    enum Kind {
        case custom, margins, safeArea
    }

    /// The solver's unknowns for the guide.
    public let layoutVariables: LayoutVariables
    /// A name for diagnostics.
    public var identifier: String?
    /// The view the guide belongs to, as `UILayoutGuide.owningView`.
    public internal(set) weak var owningView: View?

    /// What the `ndl` DSL (LayoutDSL) keeps with the guide, as ``View/ndlStorage``.
    package var ndlStorage: AnyObject?
    let kind: Kind
    /// For the margins and safe-area guides: the guide's edges held at insets from the view's.
    private(set) var edgeConstraints: [LayoutConstraint] = []
    private(set) var insets = EdgeInsets.zero

    /// Creates a guide; add it to a view with ``View/addLayoutGuide(_:)``.
    public init() {
        kind = .custom
        layoutVariables = LayoutVariables(name: "UILayoutGuide")
    }

    init(kind: Kind, owner: View) {
        self.kind = kind
        owningView = owner
        layoutVariables = LayoutVariables(name: kind == .margins ? "marginsGuide" : "safeAreaGuide")
        edgeConstraints = [
            LayoutAttribute.left, .top, .right, .bottom,
        ].map { attribute in
            LayoutConstraint(
                item: self, attribute: attribute, relatedBy: .equal, toItem: owner, attribute: attribute,
                multiplier: 1, constant: 0, priority: .required, identifier: nil, location: nil,
                origin: .guide)
        }
        for constraint in edgeConstraints {
            constraint.identifier = kind == .margins ? "UIView-layoutMargins" : "UIView-safeArea"
        }
    }

    /// Moves the guide's edges to `insets` inside the owning view's.
    func updateInsets(_ newInsets: EdgeInsets) {
        insets = newInsets
        let constants = [newInsets.left, newInsets.top, -newInsets.right, -newInsets.bottom]
        // Each changed constant tells the engine itself.
        for (constraint, constant) in zip(edgeConstraints, constants) { constraint.constant = constant }
    }

    /// The guide's rectangle in its owning view's coordinates, as of the last layout.
    public var layoutFrame: Rect {
        guard let owningView else { return .zero }
        let origin = owningView.convert(Point.zero, to: nil)
        return layoutVariables.rect.offsetBy(dx: -origin.x, dy: -origin.y)
    }

    /// `UILayoutGuide:identifier`.
    public var layoutDebugName: String { "UILayoutGuide:" + (identifier ?? shortIdentity(self)) }

    /// The name and frame.
    public var description: String { "<\(layoutDebugName) layoutFrame=\(layoutFrame)>" }
}
