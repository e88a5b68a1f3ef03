import Foundation

extension DependencyGraph {
    /// Graphviz DOT: one cluster per layer in ``layerOrder``, shapes and colours by kind, a
    /// legend, every ID quoted and escaped, and a deterministic order.
    package func dot(name: String) -> String {
        var lines = [
            "digraph \(Self.quoted(name)) {",
            "  rankdir=LR;",
            "  node [fontname=\"Helvetica\", fontsize=11, style=filled];",
            "  edge [color=\"#555555\"];",
        ]
        for (index, layer) in layersInUse.enumerated() {
            lines.append("  subgraph \"cluster_\(index)_\(Self.escaped(layer))\" {")
            lines.append("    label=\(Self.quoted(layer)); style=rounded; color=\"#bbbbbb\";")
            for node in nodes where node.layer == layer {
                lines.append("    \(Self.quoted(node.name)) [\(Self.style(node.kind))];")
            }
            lines.append("  }")
        }
        for edge in edges {
            let style = edge.kind == "product" ? " [style=dashed]" : ""
            lines.append("  \(Self.quoted(edge.from)) -> \(Self.quoted(edge.to))\(style);")
        }
        lines.append("  subgraph cluster_legend {")
        lines.append("    label=\"Legend\"; style=rounded; color=\"#bbbbbb\";")
        for kind in Kind.allCases {
            lines.append(
                "    \(Self.quoted("legend: \(kind.rawValue)")) [label=\(Self.quoted(kind.rawValue)), \(Self.style(kind))];"
            )
        }
        lines.append("  }")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Mermaid `graph LR` for Markdown, one subgraph per layer.
    package func mermaid() -> String {
        var ids: [String: String] = [:]
        for (index, node) in nodes.enumerated() { ids[node.name] = "n\(index)" }
        var lines = ["graph LR"]
        for layer in layersInUse {
            lines.append("  subgraph \(layer)")
            for node in nodes where node.layer == layer {
                let label = node.name.replacingOccurrences(of: "\"", with: "#quot;")
                let open = node.kind == .externalProduct ? "([" : node.kind == .test ? "{{" : "["
                let close = node.kind == .externalProduct ? "])" : node.kind == .test ? "}}" : "]"
                lines.append("    \(ids[node.name] ?? node.name)\(open)\"\(label)\"\(close)")
            }
            lines.append("  end")
        }
        for edge in edges {
            guard let from = ids[edge.from], let to = ids[edge.to] else { continue }
            lines.append("  \(from) \(edge.kind == "product" ? "-.->" : "-->") \(to)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as JSON, schema version 1:
    /// `{"schemaVersion": 1, "package": …, "filters": {…}, "nodes": [{"name", "kind", "layer"}],
    /// "edges": [{"from", "to", "kind"}]}`. It holds exactly the filtered graph.
    package func json(package: String, filters: GraphFilters) throws -> String {
        struct Document: Encodable {
            var schemaVersion = 1
            var package: String
            var filters: GraphFilters
            var nodes: [Node]
            var edges: [Edge]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(
            Document(package: package, filters: filters, nodes: nodes, edges: edges))
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private var layersInUse: [String] {
        var seen: [String] = []
        for node in nodes where !seen.contains(node.layer) { seen.append(node.layer) }
        return seen
    }

    private static func style(_ kind: Kind) -> String {
        switch kind {
        case .library: "shape=box, fillcolor=\"#cfe2ff\""
        case .executable: "shape=box3d, fillcolor=\"#ffd8a8\""
        case .test: "shape=note, fillcolor=\"#e9ecef\""
        case .externalProduct: "shape=component, fillcolor=\"#d3f9d8\""
        case .systemLibrary: "shape=cylinder, fillcolor=\"#fff3bf\""
        case .plugin, .macro: "shape=hexagon, fillcolor=\"#eebefa\""
        }
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    static func quoted(_ text: String) -> String { "\"\(escaped(text))\"" }
}

/// The filters a graph was made with, recorded in its JSON.
package struct GraphFilters: Sendable, Encodable, Equatable {
    /// Test targets were left out.
    package var skipTests: Bool
    /// External products were left out.
    package var skipExternal: Bool
    /// The modules the graph is focused on; empty for the whole package.
    package var focus: [String]
    /// Only direct neighbours of the focus were kept.
    package var direct: Bool

    /// Creates a record of the filters.
    package init(
        skipTests: Bool = false, skipExternal: Bool = false, focus: [String] = [], direct: Bool = false
    ) {
        self.skipTests = skipTests
        self.skipExternal = skipExternal
        self.focus = focus
        self.direct = direct
    }
}
