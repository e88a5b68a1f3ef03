import HeadlessUI
import Layout

/// How children line up across a vertical stack, as SwiftUI's `HorizontalAlignment`.
public enum HorizontalAlignment: Sendable, Hashable {
    /// Against the leading edge.
    case leading
    /// Centred.
    case center
    /// Against the trailing edge.
    case trailing
}

/// How children line up across a horizontal stack, as SwiftUI's `VerticalAlignment`.
public enum VerticalAlignment: Sendable, Hashable {
    /// Against the top.
    case top
    /// Centred.
    case center
    /// Against the bottom.
    case bottom
}

/// Children one above another, as SwiftUI's `VStack`; a HeadlessUI ``StackView``.
public struct VStack: Element, PrimitiveElement {
    /// Where the children sit across the stack.
    public var alignment: HorizontalAlignment
    /// The gap between children.
    public var spacing: Double
    /// The children.
    public var content: ElementGroup

    /// A vertical stack of `content`.
    public init(
        alignment: HorizontalAlignment = .leading, spacing: Double = 0,
        @ElementBuilder content: () -> ElementGroup
    ) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    private var stackAlignment: StackView.Alignment {
        switch alignment {
        case .leading: .leading
        case .center: .center
        case .trailing: .trailing
        }
    }

    func makeNode(in context: ElementContext) -> ElementNode {
        StackReconciler.make(
            self, axis: .vertical, alignment: stackAlignment, spacing: spacing, content, context)
    }

    func update(_ node: ElementNode, in context: ElementContext) {
        StackReconciler.update(node, alignment: stackAlignment, spacing: spacing, content, context)
    }
}

/// Children side by side, as SwiftUI's `HStack`; a HeadlessUI ``StackView``.
public struct HStack: Element, PrimitiveElement {
    /// Where the children sit across the stack.
    public var alignment: VerticalAlignment
    /// The gap between children.
    public var spacing: Double
    /// The children.
    public var content: ElementGroup

    /// A horizontal stack of `content`, one cell apart by default.
    public init(
        alignment: VerticalAlignment = .center, spacing: Double = 1,
        @ElementBuilder content: () -> ElementGroup
    ) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    private var stackAlignment: StackView.Alignment {
        switch alignment {
        case .top: .top
        case .center: .center
        case .bottom: .bottom
        }
    }

    func makeNode(in context: ElementContext) -> ElementNode {
        StackReconciler.make(
            self, axis: .horizontal, alignment: stackAlignment, spacing: spacing, content, context)
    }

    func update(_ node: ElementNode, in context: ElementContext) {
        StackReconciler.update(node, alignment: stackAlignment, spacing: spacing, content, context)
    }
}

/// Keeps a stack's arranged views in step with its children's nodes.
@MainActor
enum StackReconciler {
    static func make(
        _ element: any Element, axis: LayoutAxis, alignment: StackView.Alignment, spacing: Double,
        _ content: ElementGroup, _ context: ElementContext
    ) -> ElementNode {
        let stack = StackView()
        stack.axis = axis
        stack.alignment = alignment
        stack.spacing = spacing
        let children = content.flattened.map { ElementNode.make($0, in: context) }
        for child in children { stack.addArrangedSubview(child.view) }
        return ElementNode(element: element, view: stack, children: children)
    }

    static func update(
        _ node: ElementNode, alignment: StackView.Alignment, spacing: Double, _ content: ElementGroup,
        _ context: ElementContext
    ) {
        guard let stack = node.view as? StackView else { return }
        stack.alignment = alignment
        stack.spacing = spacing
        let elements = content.flattened
        var children: [ElementNode] = []
        for (index, element) in elements.enumerated() {
            guard index < node.children.count else {
                let child = ElementNode.make(element, in: context)
                stack.addArrangedSubview(child.view)
                children.append(child)
                continue
            }
            let old = node.children[index]
            let oldView = old.view
            let child = old.updated(to: element, in: context)
            if child.view !== oldView {
                oldView.removeFromSuperview()
                stack.insertArrangedSubview(child.view, at: index)
            }
            children.append(child)
        }
        for extra in node.children.dropFirst(elements.count) { extra.view.removeFromSuperview() }
        node.children = children
    }
}
