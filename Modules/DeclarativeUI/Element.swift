import HeadlessUI

/// A piece of a declarative screen, as SwiftUI's `View`: a value that describes what to show.
///
/// ```swift
/// struct Counter: Element {
///     @State var count = 0
///
///     var body: some Element {
///         VStack(spacing: 1) {
///             Text("Tapped \(count) times")
///             Button("Tap") { count += 1 }
///         }
///         .padding(1)
///         .border(.rounded, title: "Counter")
///     }
/// }
/// ```
///
/// Bodies are evaluated on the main actor whenever state they read changes, and the HeadlessUI
/// views they describe are updated in place where the structure stayed the same.
@MainActor
public protocol Element {
    /// The element this one is made of.
    associatedtype Body: Element
    /// What the element shows, built from other elements.
    @ElementBuilder var body: Body { get }
}

/// An element that HeadlessUI builds directly rather than from a body.
@MainActor
protocol PrimitiveElement {
    /// Makes the node, and its view, for this element.
    func makeNode(in context: ElementContext) -> ElementNode
    /// Updates `node` (made by an element of the same type) to show this element.
    func update(_ node: ElementNode, in context: ElementContext)
}

extension Never: Element {
    /// Primitive elements have no body; this is never called.
    public var body: Never {
        // An explicit return keeps the result builder out: there is nothing to build.
        // Programmer error: unreachable, since `Never` has no values.
        return fatalError("A primitive element has no body")
    }
}

extension Element where Body == Never {
    /// Primitive elements have no body.
    public var body: Never {
        // Programmer error: DeclarativeUI never asks a primitive for its body.
        return fatalError("\(Self.self) is primitive and has no body")
    }
}

/// Several elements in a row, as a result builder's block makes them. A group inside a stack
/// adds each of its elements to the stack; on its own it is stacked vertically.
public struct ElementGroup: Element, PrimitiveElement {
    /// The elements, in order.
    public let elements: [any Element]

    /// A group of `elements`.
    public init(_ elements: [any Element]) {
        self.elements = elements
    }

    /// Flattens nested groups.
    var flattened: [any Element] {
        elements.flatMap { element -> [any Element] in
            (element as? ElementGroup)?.flattened ?? [element]
        }
    }

    func makeNode(in context: ElementContext) -> ElementNode {
        let node = VStack(alignment: .leading, spacing: 0, content: { self }).makeNode(in: context)
        node.element = self
        return node
    }

    func update(_ node: ElementNode, in context: ElementContext) {
        VStack(alignment: .leading, spacing: 0, content: { self }).update(node, in: context)
    }
}

/// Builds an ``ElementGroup`` from the elements listed in a closure, with `if`, `switch` and
/// `for` as SwiftUI's `ViewBuilder` allows.
@resultBuilder
@MainActor
public enum ElementBuilder {
    /// One element.
    public static func buildExpression(_ element: some Element) -> [any Element] { [element] }
    /// The elements of a block, in order.
    public static func buildBlock(_ parts: [any Element]...) -> [any Element] { parts.flatMap { $0 } }
    /// An `if` without `else`.
    public static func buildOptional(_ part: [any Element]?) -> [any Element] { part ?? [] }
    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first part: [any Element]) -> [any Element] { part }
    /// The second branch of an `if`/`else` or `switch`.
    public static func buildEither(second part: [any Element]) -> [any Element] { part }
    /// A `for` loop.
    public static func buildArray(_ parts: [[any Element]]) -> [any Element] { parts.flatMap { $0 } }
    /// The result: a group.
    public static func buildFinalResult(_ parts: [any Element]) -> ElementGroup { ElementGroup(parts) }
}
