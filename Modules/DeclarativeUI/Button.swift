import HeadlessUI
import TerminalCore

/// A titled button that runs an action when tapped, as SwiftUI's `Button`; a HeadlessUI
/// ``HeadlessUI/Button`` view. In files that import both modules, `Button` means this element.
public struct Button: Element, PrimitiveElement {
    /// The words drawn between the brackets: `[ Refresh ]`.
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
