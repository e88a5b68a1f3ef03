/// A package's dependency graph: its targets and the external products they use.
package struct DependencyGraph: Sendable, Equatable {
    /// What a node is; it decides its shape and colour.
    package enum Kind: String, Sendable, Codable, CaseIterable {
        case library, executable, test
        case externalProduct = "external-product"
        case systemLibrary = "system-library"
        case plugin, macro
    }

    /// A target or an external product.
    package struct Node: Sendable, Equatable, Codable {
        /// The target's or product's name.
        package var name: String
        /// What it is.
        package var kind: Kind
        /// Its layer, from Project.swift.md (or a default by kind).
        package var layer: String
    }

    /// `from` depends on `to`.
    package struct Edge: Sendable, Equatable, Codable, Hashable {
        /// The dependent.
        package var from: String
        /// The dependency.
        package var to: String
        /// `target` for a target of the same package, `product` for another package's product.
        package var kind: String
    }

    /// The nodes, sorted by layer order, then name.
    package private(set) var nodes: [Node]
    /// The edges, sorted by `from`, then `to`.
    package private(set) var edges: [Edge]

    /// The layers in the order clusters are drawn.
    package static let layerOrder = [
        "Core", "Domain", "Data", "Features", "Apps", "Tools", "Tests", "External",
    ]

    /// Builds the graph of `package`, placing targets in the layers `layers` names.
    package init(package: DescribedPackage, layers: [String: String] = [:]) {
        var nodes: [String: Node] = [:]
        var edges: Set<Edge> = []
        for target in package.targets {
            let kind: Kind =
                switch target.type {
                case "executable": .executable
                case "test": .test
                case "system-target": .systemLibrary
                case "plugin": .plugin
                case "macro": .macro
                default: .library
                }
            let layer = layers[target.name] ?? (kind == .test ? "Tests" : "Core")
            nodes[target.name] = Node(name: target.name, kind: kind, layer: layer)
            for dependency in target.targetDependencies {
                edges.insert(Edge(from: target.name, to: dependency, kind: "target"))
            }
            for product in target.productDependencies {
                edges.insert(Edge(from: target.name, to: product, kind: "product"))
                if nodes[product] == nil {
                    nodes[product] = Node(name: product, kind: .externalProduct, layer: "External")
                }
            }
        }
        self.init(nodes: Array(nodes.values), edges: Array(edges))
    }

    init(nodes: [Node], edges: [Edge]) {
        func rank(_ layer: String) -> Int { Self.layerOrder.firstIndex(of: layer) ?? Self.layerOrder.count }
        self.nodes = nodes.sorted { (rank($0.layer), $0.name) < (rank($1.layer), $1.name) }
        self.edges = edges.sorted { ($0.from, $0.to) < ($1.from, $1.to) }
    }

    /// The graph without test targets, without external products, or around some modules.
    ///
    /// - Parameters:
    ///   - focus: Keep these modules, what they depend on and what depends on them.
    ///   - direct: With `focus`, only direct neighbours instead of everything reachable.
    /// - Throws: ``RibcageError/unknownModules(_:known:)`` for a focus that is not a node.
    package func filtered(skipTests: Bool, skipExternal: Bool, focus: [String], direct: Bool) throws
        -> DependencyGraph
    {
        var keep = Set(
            nodes.filter {
                !(skipTests && $0.kind == .test) && !(skipExternal && $0.kind == .externalProduct)
            }
            .map(\.name))
        if !focus.isEmpty {
            let unknown = focus.filter { name in !nodes.contains { $0.name == name } }
            guard unknown.isEmpty else {
                throw RibcageError.unknownModules(unknown, known: nodes.map(\.name).sorted())
            }
            var reached = Set(focus)
            for forward in [true, false] {
                var frontier = focus
                while let current = frontier.popLast() {
                    let neighbours = edges.filter { (forward ? $0.from : $0.to) == current }.map {
                        forward ? $0.to : $0.from
                    }
                    for neighbour in neighbours where !reached.contains(neighbour) || direct {
                        reached.insert(neighbour)
                        if !direct { frontier.append(neighbour) }
                    }
                }
            }
            keep.formIntersection(reached)
        }
        return DependencyGraph(
            nodes: nodes.filter { keep.contains($0.name) },
            edges: edges.filter { keep.contains($0.from) && keep.contains($0.to) })
    }
}
