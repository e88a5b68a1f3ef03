import HeadlessUI
import Layout

/// Text that wraps at words to the width it gets, as SwiftUI's `Text`; a ``Label`` with no line
/// limit.
public struct Text: Element, PrimitiveElement {
    /// The text.
    public var content: String
    var isBold = false

    /// Text showing `content`.
    public init(_ content: String) {
        self.content = content
    }

    /// The same text in bold.
    public func bold() -> Text {
        var copy = self
        copy.isBold = true
        return copy
    }

    func makeNode(in context: ElementContext) -> ElementNode {
        let label = Label(content)
        label.numberOfLines = 0
        label.lineBreakMode = .byWordWrapping
        let node = ElementNode(element: self, view: label)
        update(node, in: context)
        return node
    }

    func update(_ node: ElementNode, in context: ElementContext) {
        guard let label = node.view as? Label else { return }
        label.text = content
        label.textStyle = TextStyle(foreground: context.foreground, isBold: isBold)
    }
}

/// A titled button that runs an action when tapped, as SwiftUI's `Button`; a HeadlessUI
/// ``HeadlessUI/Button`` view. In files that import both modules, `Button` means this element.
public struct Button: Element, PrimitiveElement {
    /// The title.
    public var title: String
    /// What a tap does.
    public var action: @MainActor () -> Void
    var isDisabled = false

    /// A button with `title` that runs `action`.
    public init(_ title: String, action: @escaping @MainActor () -> Void) {
        self.title = title
        self.action = action
    }

    /// The same button, disabled when `disabled` is true.
    public func disabled(_ disabled: Bool) -> Button {
        var copy = self
        copy.isDisabled = disabled
        return copy
    }

    func makeNode(in context: ElementContext) -> ElementNode {
        let node = ElementNode(element: self, view: HeadlessUI.Button(title: title))
        update(node, in: context)
        return node
    }

    func update(_ node: ElementNode, in context: ElementContext) {
        guard let button = node.view as? HeadlessUI.Button else { return }
        button.title = title
        button.primaryAction = action
        button.isEnabled = !isDisabled
        button.titleStyle = TextStyle(foreground: context.foreground)
    }
}

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

/// A thin rule across its stack, as SwiftUI's `Divider`; a HeadlessUI ``Separator``.
public struct Divider: Element, PrimitiveElement {
    /// A rule.
    public init() {}

    func makeNode(in context: ElementContext) -> ElementNode {
        ElementNode(element: self, view: Separator())
    }

    func update(_ node: ElementNode, in context: ElementContext) {}
}

/// A captioned stand-in for a picture; a HeadlessUI ``ImageView``.
public struct Picture: Element, PrimitiveElement {
    /// The picture, if known.
    public var image: Image?
    /// The caption.
    public var caption: String?

    /// A picture with a caption.
    public init(_ image: Image?, caption: String? = nil) {
        self.image = image
        self.caption = caption
    }

    func makeNode(in context: ElementContext) -> ElementNode {
        let node = ElementNode(element: self, view: ImageView())
        update(node, in: context)
        return node
    }

    func update(_ node: ElementNode, in context: ElementContext) {
        guard let view = node.view as? ImageView else { return }
        view.image = image
        view.caption = caption
    }
}
