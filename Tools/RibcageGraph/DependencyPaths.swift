import RibcagePackage

/// Every dependency path from one node of a graph to another: `ribcage why A B`, after Bazel's
/// `allpaths`.
package struct DependencyPaths: Sendable, Equatable {
    /// The paths, shortest first, each from the first node to the last.
    package var paths: [[String]]
    /// True when there were more than the limit, which were left out.
    package var truncated: Bool

    /// The paths from `start` to `end` along `graph`'s edges, none visiting a node twice.
    ///
    /// - Parameter limit: At most this many paths are kept; a wide graph can have millions.
    /// - Throws: ``RibcageError/unknownModules(_:known:)`` when either is not a node.
    package init(from start: String, to end: String, in graph: DependencyGraph, limit: Int = 1_000) throws {
        let names = Set(graph.nodes.map(\.name))
        let unknown = [start, end].filter { !names.contains($0) }
        guard unknown.isEmpty else { throw RibcageError.unknownModules(unknown, known: names.sorted()) }
        var next: [String: [String]] = [:]
        for edge in graph.edges { next[edge.from, default: []].append(edge.to) }
        // Only nodes that can reach `end` are worth walking into.
        var previous: [String: [String]] = [:]
        for edge in graph.edges { previous[edge.to, default: []].append(edge.from) }
        var canReach: Set<String> = [end]
        var pending = [end]
        while let node = pending.popLast() {
            for dependent in previous[node] ?? [] where canReach.insert(dependent).inserted {
                pending.append(dependent)
            }
        }
        var found: [[String]] = []
        var truncated = false
        var path = [start]
        var onPath: Set<String> = [start]
        func walk(_ node: String) {
            guard !truncated else { return }
            if node == end && path.count > 1 {
                if found.count == limit {
                    truncated = true
                } else {
                    found.append(path)
                }
                return
            }
            for neighbour in (next[node] ?? []).sorted()
            where canReach.contains(neighbour) && !onPath.contains(neighbour) {
                path.append(neighbour)
                onPath.insert(neighbour)
                walk(neighbour)
                onPath.remove(neighbour)
                path.removeLast()
            }
        }
        if start != end { walk(start) }
        paths = found.sorted {
            ($0.count, $0.joined(separator: " ")) < ($1.count, $1.joined(separator: " "))
        }
        self.truncated = truncated
    }

    /// The graph of the nodes and edges on the paths, to draw.
    package func graph(within whole: DependencyGraph) -> DependencyGraph {
        let names = Set(paths.flatMap { $0 })
        var steps: Set<[String]> = []
        for path in paths {
            for (from, to) in zip(path, path.dropFirst()) { steps.insert([from, to]) }
        }
        return DependencyGraph(
            nodes: whole.nodes.filter { names.contains($0.name) },
            edges: whole.edges.filter { steps.contains([$0.from, $0.to]) }, layered: whole.layered)
    }
}
