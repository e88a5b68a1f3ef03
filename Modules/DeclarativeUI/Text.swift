import HeadlessUI
import TerminalCore

/// Text that wraps at words to the width it gets, as SwiftUI's `Text`; a ``Label`` with no line
/// limit.
public struct Text: Element, PrimitiveElement {
    /// What it says, wrapped at words; a newline starts a new line.
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
