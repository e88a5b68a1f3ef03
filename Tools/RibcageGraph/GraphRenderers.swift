import Foundation
import RibcagePackage

extension DependencyGraph {
    /// The group a node is drawn in: its layer (with a Project.swift.md), its package (at
    /// package level), `External` for other packages' products in a layered graph, or none.
    struct Group: Hashable {
        var title: String
        var package: String?
    }

    func group(of node: Node) -> Group? {
        if let package = node.package, !packages.isEmpty {
            let version = packages.first { $0.identity == package }?.version
            return Group(title: version.map { "\(package) \($0)" } ?? package, package: package)
        }
        if node.kind == .externalProduct || node.kind == .package {
            return layered ? Group(title: "External") : nil
        }
        return node.layer.map { Group(title: $0) }
    }

    /// The groups in drawing order, each with its nodes; ungrouped nodes under `nil`.
    func groups() -> [(group: Group?, nodes: [Node])] {
        var order: [Group?] = []
        var members: [Group?: [Node]] = [:]
        for node in nodes {
            let group = self.group(of: node)
            if members[group] == nil { order.append(group) }
            members[group, default: []].append(node)
        }
        return order.map { ($0, members[$0] ?? []) }
    }

    /// Graphviz DOT: a cluster per layer (with a Project.swift.md) or per package (at package
    /// level), shapes and colours by kind, dashed edges to other packages' products, dotted and
    /// labelled ones for `.when(…)` dependencies, a legend, every ID quoted and escaped, and a
    /// deterministic order.
    package func dot(name: String) -> String {
        var lines = [
            "digraph \(Self.quoted(name)) {",
            "  rankdir=LR;",
            "  compound=true;",
            "  node [fontname=\"Helvetica\", fontsize=11, style=filled];",
            "  edge [color=\"#555555\", fontname=\"Helvetica\", fontsize=9];",
        ]
        var clusterOfPackage: [String: String] = [:]
        for (index, entry) in groups().enumerated() {
            guard let group = entry.group else {
                for node in entry.nodes {
                    lines.append("  \(Self.quoted(node.name)) [\(Self.style(node.kind))];")
                }
                continue
            }
            let cluster = "cluster_\(index)_\(group.title)"
            if let package = group.package { clusterOfPackage[package] = cluster }
            lines.append("  subgraph \(Self.quoted(cluster)) {")
            let look =
                group.package == nil
                ? "style=rounded; color=\"#bbbbbb\""
                : "style=\"rounded,filled\"; color=\"#8ce99a\"; fillcolor=\"#f4fcf5\""
            lines.append("    label=\(Self.quoted(group.title)); \(look);")
            for node in entry.nodes {
                lines.append("    \(Self.quoted(node.name)) [\(Self.style(node.kind))];")
            }
            lines.append("  }")
        }
        for edge in edges {
            var attributes: [String] = []
            if edge.kind == "product" { attributes.append("style=dashed") }
            if let condition = edge.condition {
                attributes = ["style=dotted", "color=\"#e8590c\"", "label=\(Self.quoted(condition))"]
            }
            let suffix = attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
            lines.append("  \(Self.quoted(edge.from)) -> \(Self.quoted(edge.to))\(suffix);")
        }
        // A package's dependency on another: between one node of each cluster, clipped to the clusters.
        let anchor = Dictionary(
            nodes.compactMap { node in node.package.map { ($0, node.name) } },
            uniquingKeysWith: { first, _ in first })
        for edge in packageEdges {
            guard let from = anchor[edge.from], let to = anchor[edge.to],
                let tail = clusterOfPackage[edge.from],
                let head = clusterOfPackage[edge.to]
            else { continue }
            lines.append(
                "  \(Self.quoted(from)) -> \(Self.quoted(to)) [ltail=\(Self.quoted(tail)), lhead=\(Self.quoted(head)), color=\"#2b8a3e\", penwidth=2];"
            )
        }
        lines += legend()
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func legend() -> [String] {
        var lines = [
            "  subgraph cluster_legend {", "    label=\"Legend\"; style=rounded; color=\"#bbbbbb\";",
        ]
        let kinds = Kind.allCases.filter { kind in nodes.contains { $0.kind == kind } }
        for kind in kinds {
            lines.append(
                "    \(Self.quoted("legend: \(kind.rawValue)")) [label=\(Self.quoted(kind.rawValue)), \(Self.style(kind))];"
            )
        }
        var styles: [(String, String)] = [("depends on a target", "")]
        if edges.contains(where: { $0.kind == "product" }) {
            styles.append(("uses a product", "style=dashed"))
        }
        if edges.contains(where: { $0.condition != nil }) {
            styles.append(("only .when(platforms/traits)", "style=dotted, color=\"#e8590c\""))
        }
        if !packageEdges.isEmpty {
            styles.append(("package depends on package", "color=\"#2b8a3e\", penwidth=2"))
        }
        for (index, (label, style)) in styles.enumerated() {
            let from = Self.quoted("legend: edge \(index)")
            let to = Self.quoted("legend: edge \(index) end")
            lines.append("    \(from) [label=\"\", shape=point, width=0.05];")
            lines.append("    \(to) [label=\(Self.quoted(label)), shape=plaintext, style=\"\"];")
            lines.append("    \(from) -> \(to)\(style.isEmpty ? "" : " [\(style)]");")
        }
        lines.append("  }")
        return lines
    }

    /// Mermaid `graph LR` for Markdown: a subgraph per group, shapes by kind (see README),
    /// dotted links to products, labelled links for `.when(…)` dependencies.
    package func mermaid() -> String {
        var ids: [String: String] = [:]
        for (index, node) in nodes.enumerated() { ids[node.name] = "n\(index)" }
        var lines = ["graph LR"]
        var subgraphOfPackage: [String: String] = [:]
        for (index, entry) in groups().enumerated() {
            let indent = entry.group == nil ? "  " : "    "
            if let group = entry.group {
                if let package = group.package {
                    subgraphOfPackage[package] = "p\(index)"
                    lines.append("  subgraph p\(index) [\"\(Self.mermaidText(group.title))\"]")
                } else {
                    lines.append("  subgraph \(group.title)")
                }
            }
            for node in entry.nodes {
                let (open, close) = Self.mermaidShape(node.kind)
                lines.append(
                    "\(indent)\(ids[node.name] ?? node.name)\(open)\"\(Self.mermaidText(node.name))\"\(close)"
                )
            }
            if entry.group != nil { lines.append("  end") }
        }
        for edge in edges {
            guard let from = ids[edge.from], let to = ids[edge.to] else { continue }
            let arrow =
                switch (edge.kind == "product", edge.condition) {
                case (false, nil): "-->"
                case (true, nil): "-.->"
                case (false, let condition?): "-- \"\(Self.mermaidText(condition))\" -->"
                case (true, let condition?): "-. \"\(Self.mermaidText(condition))\" .->"
                }
            lines.append("  \(from) \(arrow) \(to)")
        }
        for edge in packageEdges {
            guard let from = subgraphOfPackage[edge.from], let to = subgraphOfPackage[edge.to] else {
                continue
            }
            lines.append("  \(from) ==> \(to)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as JSON, schema version 2:
    /// `{"schemaVersion": 2, "package": …, "filters": {…}, "nodes": [{"name", "kind", "layer"?,
    /// "package"?}], "edges": [{"from", "to", "kind", "condition"?}], "packages": [{"identity",
    /// "version"?, "url"?, "dependencies"}]}`. It holds exactly the filtered graph.
    package func json(package: String, filters: GraphFilters) throws -> String {
        struct Document: Encodable {
            var schemaVersion = 2
            var package: String
            var filters: GraphFilters
            var nodes: [Node]
            var edges: [Edge]
            var packages: [ExternalPackage]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(
            Document(package: package, filters: filters, nodes: nodes, edges: edges, packages: packages))
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func style(_ kind: Kind) -> String {
        switch kind {
        case .library: "shape=box, fillcolor=\"#cfe2ff\""
        case .executable: "shape=box3d, fillcolor=\"#ffd8a8\""
        case .test: "shape=note, fillcolor=\"#e9ecef\""
        case .macro: "shape=hexagon, fillcolor=\"#eebefa\""
        case .plugin: "shape=cds, fillcolor=\"#fcc2d7\""
        case .snippet: "shape=tab, fillcolor=\"#f1f3f5\""
        case .cLibrary: "shape=box, style=\"filled,diagonals\", fillcolor=\"#fff3bf\""
        case .systemLibrary: "shape=cylinder, fillcolor=\"#fff3bf\""
        case .binary: "shape=box, peripheries=2, fillcolor=\"#dee2e6\""
        case .externalProduct: "shape=component, fillcolor=\"#d3f9d8\""
        case .package: "shape=folder, fillcolor=\"#d3f9d8\""
        }
    }

    private static func mermaidShape(_ kind: Kind) -> (String, String) {
        switch kind {
        case .library: ("[", "]")
        case .executable: ("[[", "]]")
        case .test: ("{{", "}}")
        case .macro: (">", "]")
        case .plugin: ("[/", "\\]")
        case .snippet: ("[/", "/]")
        case .cLibrary: ("[(", ")]")
        case .systemLibrary: ("((", "))")
        case .binary: ("[\\", "\\]")
        case .externalProduct, .package: ("([", "])")
        }
    }

    private static func mermaidText(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "#quot;")
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    static func quoted(_ text: String) -> String { "\"\(escaped(text))\"" }
}
