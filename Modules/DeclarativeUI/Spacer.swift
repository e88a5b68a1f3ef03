import HeadlessUI
import Layout

/// Empty space that takes what its stack has left, as SwiftUI's `Spacer`.
public struct Spacer: Element, PrimitiveElement {
    /// The least space it takes.
    public var minLength: Double

    /// A spacer of at least `minLength` cells.
    public init(minLength: Double = 0) {
        self.minLength = minLength
    }

    func makeNode(in context: ElementContext) -> ElementNode {
        let view = SpacerView()
        view.accessibilityIdentifier = "Spacer"
        let node = ElementNode(element: self, view: view)
        update(node, in: context)
        return node
    }

    func update(_ node: ElementNode, in context: ElementContext) {
        (node.view as? SpacerView)?.minLength = minLength
    }
}

/// A spacer's view: no intrinsic size, so it grows for free, and at least `minLength` along its
/// stack's axis.
final class SpacerView: View {
    private var minimum: [LayoutConstraint] = []
    var minLength: Double = 0 {
        didSet { if minLength != oldValue || minimum.isEmpty { setNeedsLayout() } }
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        let axis = (superview as? StackView)?.axis ?? .vertical
        let attribute: LayoutAttribute = axis == .vertical ? .height : .width
        guard minimum.first?.firstAttribute != attribute || minimum.first?.constant != minLength else {
            return
        }
        LayoutConstraint.deactivate(minimum)
        minimum = [
            LayoutConstraint(
                item: self, attribute: attribute, relatedBy: .greaterThanOrEqual, constant: minLength,
                identifier: "Spacer-minLength")
        ]
        LayoutConstraint.activate(minimum)
    }
}
