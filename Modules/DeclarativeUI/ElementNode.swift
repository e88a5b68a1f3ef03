import HeadlessUI
import Layout
import TerminalCore

/// What an element inherits from the ones around it, as SwiftUI's environment.
struct ElementContext {
    /// The text colour set by `foregroundStyle`.
    var foreground: Color?
}

/// The live counterpart of an element: the view it made and the nodes of its parts. The tree of
/// nodes survives re-evaluation; each new element updates the node in its place.
@MainActor
final class ElementNode {
    /// The element last shown.
    var element: any Element
    /// The view that shows it.
    var view: View
    /// The nodes of the element's parts.
    var children: [ElementNode]
    /// Whatever the element needs to keep between updates (a list's data source, constraints).
    var storage: AnyObject?

    init(element: any Element, view: View, children: [ElementNode] = [], storage: AnyObject? = nil) {
        self.element = element
        self.view = view
        self.children = children
        self.storage = storage
    }

    /// Makes the node for `element`: a primitive makes its own; a composite is its body's node.
    static func make(_ element: any Element, in context: ElementContext) -> ElementNode {
        let element = unwrapped(element)
        if let primitive = element as? any PrimitiveElement {
            return primitive.makeNode(in: context)
        }
        let child = make(element.body, in: context)
        return ElementNode(element: element, view: child.view, children: [child])
    }

    /// The node that shows `element` where this one was: this node updated when the element has
    /// the same type, else a new node. The caller swaps the views when they differ.
    func updated(to element: any Element, in context: ElementContext) -> ElementNode {
        let element = Self.unwrapped(element)
        guard type(of: element) == type(of: self.element) else { return Self.make(element, in: context) }
        if let primitive = element as? any PrimitiveElement {
            primitive.update(self, in: context)
            self.element = element
            return self
        }
        StateAdoption.adopt(from: self.element, into: element)
        self.element = element
        let child = children[0].updated(to: element.body, in: context)
        children = [child]
        view = child.view
        return self
    }

    /// A block of one element is that element, so that a body's node has the same type from
    /// one evaluation to the next.
    private static func unwrapped(_ element: any Element) -> any Element {
        guard let group = element as? ElementGroup else { return element }
        let items = group.flattened
        return items.count == 1 ? items[0] : group
    }
}
