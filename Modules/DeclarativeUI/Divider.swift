import HeadlessUI

/// A thin rule across its stack, as SwiftUI's `Divider`; a HeadlessUI ``Separator``.
public struct Divider: Element, PrimitiveElement {
    /// A rule.
    public init() {}

    func makeNode(in context: ElementContext) -> ElementNode {
        ElementNode(element: self, view: Separator())
    }

    func update(_ node: ElementNode, in context: ElementContext) {}
}
