/// A snapshot of a live RIB tree, for debugging: `tree` in the TodoApp prints one.
///
/// RIBs-iOS has no official tree viewer; this one prints the router type, whether the RIB is
/// active and whether it owns a view, as indented text or as Graphviz DOT.
@MainActor
public struct RouterTree: Sendable, Equatable {
    /// One RIB.
    public struct Node: Sendable, Equatable {
        /// The router's type name, e.g. `TodoRouter`.
        public var routerType: String
        /// Whether the RIB's interactor is active.
        public var isActive: Bool
        /// Whether the router owns a view (is a ``ViewableRouting``).
        public var isViewable: Bool
        /// The routers attached to this one, in the order they were attached, each with its own
        /// subtree.
        public var children: [Node]
    }

    /// The root of the snapshot.
    public var root: Node

    /// Takes a snapshot of the tree below `router`.
    public init(_ router: any Routing) {
        root = Self.node(for: router)
    }

    private static func node(for router: any Routing) -> Node {
        Node(
            routerType: typeName(of: router), isActive: router.interactable.isActive,
            isViewable: router is any ViewableRouting, children: router.children.map(node(for:)))
    }

    /// The tree as indented text:
    ///
    /// ```
    /// RootRouter [active, view]
    /// ├─ TodoRouter [active, view]
    /// │  └─ AddTodoRouter [active, view]
    /// └─ ProfileRouter [inactive, view]
    /// ```
    public var text: String {
        var lines: [String] = []
        func visit(_ node: Node, prefix: String, childPrefix: String) {
            lines.append(prefix + Self.label(node))
            for (index, child) in node.children.enumerated() {
                let isLast = index == node.children.count - 1
                visit(
                    child, prefix: childPrefix + (isLast ? "└─ " : "├─ "),
                    childPrefix: childPrefix + (isLast ? "   " : "│  "))
            }
        }
        visit(root, prefix: "", childPrefix: "")
        return lines.joined(separator: "\n")
    }

    /// The tree as a Graphviz `digraph`: active RIBs filled green, inactive grey; viewable RIBs
    /// are boxes, viewless ones ellipses.
    public var dot: String {
        var lines = ["digraph RIBs {", "  node [style=filled, fontname=\"Helvetica\"];"]
        var counter = 0
        func visit(_ node: Node) -> String {
            let id = "n\(counter)"
            counter += 1
            let shape = node.isViewable ? "box" : "ellipse"
            let color = node.isActive ? "palegreen" : "lightgrey"
            lines.append(
                "  \(id) [label=\"\(Self.escaped(Self.label(node)))\", shape=\(shape), fillcolor=\(color)];")
            for child in node.children {
                let childID = visit(child)
                lines.append("  \(id) -> \(childID);")
            }
            return id
        }
        _ = visit(root)
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    private static func label(_ node: Node) -> String {
        "\(node.routerType) [\(node.isActive ? "active" : "inactive")\(node.isViewable ? ", view" : "")]"
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
