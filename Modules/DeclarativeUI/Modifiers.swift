import HeadlessUI
import Layout
import TerminalCore

extension Element {
    /// The element with `insets` of empty space around it.
    public func padding(_ insets: EdgeInsets) -> some Element {
        Padding(content: self, insets: insets)
    }

    /// The element with `length` cells of empty space on every side (1 by default).
    public func padding(_ length: Double = 1) -> some Element {
        Padding(content: self, insets: EdgeInsets(all: length))
    }

    /// The element held at a fixed `width`, `height`, or both.
    public func frame(width: Double? = nil, height: Double? = nil) -> some Element {
        Frame(content: self, width: width, height: height)
    }

    /// The element in a box drawn with `border`, with an optional title in its top edge.
    public func border(_ border: BorderStyle = .single, title: String? = nil) -> some Element {
        Border(content: self, style: border, title: title)
    }

    /// The element with text and buttons in `color`, unless an inner element sets its own.
    public func foregroundStyle(_ color: Color) -> some Element {
        ForegroundStyle(content: self, color: color)
    }
}

/// The constraints that hold a modifier's child in its container, kept to change their insets.
final class ModifierStorage {
    var constraints: [LayoutConstraint] = []
}

/// Re-hosts `child` in `container` when its view changed, pinned at `insets`.
@MainActor
private func host(_ child: ElementNode, in node: ElementNode, insets: EdgeInsets) {
    let container = (node.view as? BoxView)?.contentView ?? node.view
    let storage = (node.storage as? ModifierStorage) ?? ModifierStorage()
    node.storage = storage
    if child.view.superview !== container {
        node.children.first?.view.removeFromSuperview()
        container.addSubview(child.view)
        storage.constraints = child.view.pinEdges(
            to: container, insets: insets, identifier: "DeclarativeUI-modifier")
    } else {
        // pinEdges orders them left, right, top, bottom.
        for (constraint, constant) in zip(
            storage.constraints, [insets.left, -insets.right, insets.top, -insets.bottom])
        where constraint.constant != constant {
            constraint.constant = constant
        }
    }
    node.children = [child]
}

struct Padding<Content: Element>: Element, PrimitiveElement {
    let content: Content
    let insets: EdgeInsets

    func makeNode(in context: ElementContext) -> ElementNode {
        let node = ElementNode(element: self, view: View())
        node.view.accessibilityIdentifier = "padding"
        host(ElementNode.make(content, in: context), in: node, insets: insets)
        return node
    }

    func update(_ node: ElementNode, in context: ElementContext) {
        guard let old = node.children.first else { return }
        host(old.updated(to: content, in: context), in: node, insets: insets)
    }
}

struct Frame<Content: Element>: Element, PrimitiveElement {
    let content: Content
    let width: Double?
    let height: Double?

    func makeNode(in context: ElementContext) -> ElementNode {
        let node = ElementNode(element: self, view: FrameView())
        host(ElementNode.make(content, in: context), in: node, insets: .zero)
        (node.view as? FrameView)?.fixedSize = (width, height)
        return node
    }

    func update(_ node: ElementNode, in context: ElementContext) {
        if let old = node.children.first {
            host(old.updated(to: content, in: context), in: node, insets: .zero)
        }
        guard let view = node.view as? FrameView, view.fixedSize != (width, height) else { return }
        view.fixedSize = (width, height)
    }
}

/// A view held at a fixed width or height by required constraints.
final class FrameView: View {
    private var sizeConstraints: [LayoutConstraint] = []
    var fixedSize: (width: Double?, height: Double?) = (nil, nil) {
        didSet {
            LayoutConstraint.deactivate(sizeConstraints)
            sizeConstraints = [(LayoutAttribute.width, fixedSize.width), (.height, fixedSize.height)]
                .compactMap {
                    attribute, value in
                    value.map {
                        LayoutConstraint(
                            item: self, attribute: attribute, relatedBy: .equal, constant: $0,
                            identifier: "DeclarativeUI-frame")
                    }
                }
            LayoutConstraint.activate(sizeConstraints)
        }
    }
}

struct Border<Content: Element>: Element, PrimitiveElement {
    let content: Content
    let style: BorderStyle
    let title: String?

    func makeNode(in context: ElementContext) -> ElementNode {
        let node = ElementNode(element: self, view: BoxView(title: title, border: style))
        host(ElementNode.make(content, in: context), in: node, insets: .zero)
        configure(node, in: context)
        return node
    }

    func update(_ node: ElementNode, in context: ElementContext) {
        if let old = node.children.first {
            host(old.updated(to: content, in: context), in: node, insets: .zero)
        }
        configure(node, in: context)
    }

    private func configure(_ node: ElementNode, in context: ElementContext) {
        guard let box = node.view as? BoxView else { return }
        box.title = title
        box.border = style
        box.borderTextStyle = TextStyle(foreground: context.foreground)
    }
}

struct ForegroundStyle<Content: Element>: Element, PrimitiveElement {
    let content: Content
    let color: Color

    func makeNode(in context: ElementContext) -> ElementNode {
        var inner = context
        inner.foreground = color
        let child = ElementNode.make(content, in: inner)
        return ElementNode(element: self, view: child.view, children: [child])
    }

    func update(_ node: ElementNode, in context: ElementContext) {
        var inner = context
        inner.foreground = color
        guard let old = node.children.first else { return }
        let child = old.updated(to: content, in: inner)
        node.children = [child]
        node.view = child.view
    }
}
