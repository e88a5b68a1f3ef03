import RibcagePackage

/// A package's dependency graph: its targets, the products of other packages they use and,
/// at package level, those packages and theirs.
package struct DependencyGraph: Sendable, Equatable {
    /// What a node is; it decides its shape and colour.
    package enum Kind: String, Sendable, Codable, CaseIterable {
        case library, executable, test, macro, plugin, snippet
        case cLibrary = "c-library"
        case systemLibrary = "system-library"
        case binary
        case externalProduct = "external-product"
        /// A package whose products the package does not use itself, at package level.
        case package
    }

    /// A target, an external product or a package.
    package struct Node: Sendable, Equatable, Codable {
        /// The target's, product's or package's name.
        package var name: String
        /// What it is.
        package var kind: Kind
        /// Its layer, from Project.swift.md; `nil` when the package has none.
        package var layer: String?
        /// For an external product or a package node, the package's identity.
        package var package: String?

        /// A node; `layer` and `package` when known.
        package init(name: String, kind: Kind, layer: String? = nil, package: String? = nil) {
            self.name = name
            self.kind = kind
            self.layer = layer
            self.package = package
        }
    }

    /// `from` depends on `to`.
    package struct Edge: Sendable, Equatable, Codable, Hashable {
        /// The dependent.
        package var from: String
        /// The dependency.
        package var to: String
        /// `target` (same package), `product` (another package's product) or `package`
        /// (a package depends on another, at package level).
        package var kind: String
        /// `.when(…)` as text (`macos, ios`, `traits: Foo`) for a conditional dependency.
        package var condition: String?

        /// An edge; `condition` for one declared with `.when(…)`.
        package init(from: String, to: String, kind: String, condition: String? = nil) {
            self.from = from
            self.to = to
            self.kind = kind
            self.condition = condition
        }
    }

    /// Another package, at package level.
    package typealias ExternalPackage = RibcagePackage.ExternalPackage

    /// The nodes, sorted by layer order, then name.
    package private(set) var nodes: [Node]
    /// The edges, sorted by `from`, then `to`.
    package private(set) var edges: [Edge]
    /// The other packages, when the graph is at package level; empty otherwise.
    package private(set) var packages: [ExternalPackage]
    /// True when the targets are placed in the layers of a Project.swift.md, which the
    /// drawings group them by; without one, nothing is grouped into layers.
    package private(set) var layered: Bool

    /// The layers in the order clusters are drawn.
    package static let layerOrder = [
        "Core", "Domain", "Data", "Features", "Apps", "Tools", "Tests",
    ]

    /// Builds the graph of `package`. `layers` places targets in the layers of a Project.swift.md;
    /// without one, nothing is grouped. `packages` (from ``PackageDependencies``) adds the
    /// package level.
    package init(
        package: DescribedPackage, layers: [String: String] = [:], packages: PackageDependencies? = nil
    ) {
        var nodes: [String: Node] = [:]
        var edges: Set<Edge> = []
        for target in package.targets {
            let kind = Self.kind(of: target)
            let layer = layers[target.name] ?? (layers.isEmpty ? nil : (kind == .test ? "Tests" : nil))
            nodes[target.name] = Node(name: target.name, kind: kind, layer: layer)
            for dependency in target.dependencies {
                let isTarget = dependency.kind == .target
                edges.insert(
                    Edge(
                        from: target.name, to: dependency.name, kind: isTarget ? "target" : "product",
                        condition: dependency.condition.map(\.summary)))
                if !isTarget && nodes[dependency.name] == nil {
                    let owner =
                        dependency.package?.lowercased() ?? packages?.owner(ofProduct: dependency.name)
                    nodes[dependency.name] = Node(
                        name: dependency.name, kind: .externalProduct, package: owner)
                }
            }
        }
        var external: [ExternalPackage] = []
        if let packages {
            external = packages.all
            let used = Set(nodes.values.compactMap(\.package))
            for dependency in external where !used.contains(dependency.identity) {
                nodes[dependency.identity] = Node(
                    name: dependency.identity, kind: .package, package: dependency.identity)
            }
        }
        self.init(
            nodes: Array(nodes.values), edges: Array(edges), packages: external, layered: !layers.isEmpty)
    }

    /// A graph of exactly these nodes and edges.
    package init(nodes: [Node], edges: [Edge], packages: [ExternalPackage] = [], layered: Bool = false) {
        self.layered = layered
        func rank(_ layer: String?) -> Int {
            layer.flatMap { Self.layerOrder.firstIndex(of: $0) } ?? Self.layerOrder.count
        }
        self.nodes = nodes.sorted {
            (rank($0.layer), $0.package ?? "", $0.name) < (rank($1.layer), $1.package ?? "", $1.name)
        }
        self.edges = edges.sorted { ($0.from, $0.to) < ($1.from, $1.to) }
        self.packages = packages.sorted { $0.identity < $1.identity }
    }

    private static func kind(of target: DescribedPackage.Target) -> Kind {
        switch target.type {
        case "executable": return .executable
        case "test": return .test
        case "system-target": return .systemLibrary
        case "plugin": return .plugin
        case "macro": return .macro
        case "snippet": return .snippet
        case "binary": return .binary
        default: return target.moduleType == "ClangTarget" ? .cLibrary : .library
        }
    }

    /// The node called `name`.
    package func node(named name: String) -> Node? {
        nodes.first { $0.name == name }
    }

    /// The package-to-package edges, at package level: `from` and `to` are identities.
    package var packageEdges: [Edge] {
        packages.flatMap { dependency in
            dependency.dependencies.map { Edge(from: dependency.identity, to: $0, kind: "package") }
        }
    }
}
