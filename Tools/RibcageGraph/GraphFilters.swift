import RibcagePackage

/// The filters a graph is drawn with, recorded in its JSON.
package struct GraphFilters: Sendable, Encodable, Equatable {
    /// Test targets are left out.
    package var skipTests: Bool
    /// External products, and packages, are left out.
    package var skipExternal: Bool
    /// The modules the graph is focused on, together; empty for the whole package.
    package var focus: [String]
    /// Only direct neighbours of the focus are kept.
    package var direct: Bool

    /// A set of filters; the defaults keep everything.
    package init(
        skipTests: Bool = false, skipExternal: Bool = false, focus: [String] = [], direct: Bool = false
    ) {
        self.skipTests = skipTests
        self.skipExternal = skipExternal
        self.focus = focus
        self.direct = direct
    }
}

extension DependencyGraph {
    /// The graph without test targets, without other packages' products, or around some modules.
    ///
    /// Several focus modules keep the union of what each keeps: each one, what it depends on and
    /// what depends on it (transitively, or only direct neighbours with ``GraphFilters/direct``).
    ///
    /// - Throws: ``RibcageError/unknownModules(_:known:)`` for a focus that is not a node, and
    ///   ``RibcageError/focusFilteredOut(_:filter:)`` for one the other filters remove.
    package func filtered(_ filters: GraphFilters) throws -> DependencyGraph {
        let names = Set(nodes.map(\.name))
        let unknown = filters.focus.filter { !names.contains($0) }
        guard unknown.isEmpty else {
            throw RibcageError.unknownModules(unknown, known: names.sorted())
        }
        func isExternal(_ node: Node) -> Bool { node.kind == .externalProduct || node.kind == .package }
        var keep = Set(
            nodes.filter {
                !(filters.skipTests && $0.kind == .test) && !(filters.skipExternal && isExternal($0))
            }
            .map(\.name))
        for (flag, removes) in [
            ("--skip-tests", { (node: Node) in node.kind == .test }), ("--skip-external", isExternal),
        ] {
            let removed = filters.focus.filter { name in
                !keep.contains(name) && nodes.contains { $0.name == name && removes($0) }
            }
            if !removed.isEmpty { throw RibcageError.focusFilteredOut(removed, filter: flag) }
        }
        if !filters.focus.isEmpty {
            // Each direction has its own walk: a node reached going down must still be walked up.
            let down = reach(
                from: filters.focus, following: { edge in (edge.from, edge.to) }, direct: filters.direct)
            let up = reach(
                from: filters.focus, following: { edge in (edge.to, edge.from) }, direct: filters.direct)
            keep.formIntersection(down.union(up).union(filters.focus))
        }
        let keptPackages = Set(nodes.filter { keep.contains($0.name) }.compactMap(\.package))
        // At package level, the packages under the kept products stay, with what they depend on.
        var packageNames = keptPackages
        var pending = Array(keptPackages)
        let byIdentity = Dictionary(
            packages.map { ($0.identity, $0) }, uniquingKeysWith: { first, _ in first })
        while let identity = pending.popLast() {
            for next in byIdentity[identity]?.dependencies ?? [] where packageNames.insert(next).inserted {
                pending.append(next)
            }
        }
        if filters.focus.isEmpty && !filters.skipExternal {
            packageNames.formUnion(packages.map(\.identity))
        }
        if filters.skipExternal { packageNames = [] }
        var keptNodes = nodes.filter { node in
            node.kind == .package ? packageNames.contains(node.name) : keep.contains(node.name)
        }
        // A package kept only because a kept one depends on it, whose products the focus left
        // out, is still drawn: as a package node, so its cluster and edges stay.
        let drawn = Set(keptNodes.compactMap(\.package))
        for identity in packageNames.subtracting(drawn).sorted() {
            keptNodes.append(Node(name: identity, kind: .package, package: identity))
        }
        let keptNames = Set(keptNodes.map(\.name))
        return DependencyGraph(
            nodes: keptNodes,
            edges: edges.filter { keptNames.contains($0.from) && keptNames.contains($0.to) },
            packages: packages.filter { packageNames.contains($0.identity) }, layered: layered)
    }

    /// Every node reached from `start` along the edges, each turned by `direction` into
    /// (here, next); only one step with `direct`.
    private func reach(
        from start: [String], following direction: (Edge) -> (String, String), direct: Bool
    ) -> Set<String> {
        var next: [String: [String]] = [:]
        for edge in edges {
            let (here, there) = direction(edge)
            next[here, default: []].append(there)
        }
        var reached: Set<String> = []
        var frontier = start
        while let current = frontier.popLast() {
            for neighbour in next[current] ?? [] where reached.insert(neighbour).inserted {
                if !direct { frontier.append(neighbour) }
            }
        }
        return reached
    }
}
