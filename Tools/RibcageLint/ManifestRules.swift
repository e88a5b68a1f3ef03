/// The checks against Project.swift.md and the target graph: (a) manifest agreement,
/// (b) layer rules, (c) cycles.
extension Linter {
    private var targetNames: Set<String> { Set(package.targets.map(\.name)) }

    // (a)
    func manifestAgreement() -> [Diagnostic] {
        guard let manifest else { return [] }
        func error(_ message: String) -> Diagnostic {
            Diagnostic(
                file: "Project.swift.md", line: 1, severity: .error, rule: "manifest", message: message)
        }
        var found: [Diagnostic] = []
        let rows = Dictionary(manifest.modules.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let testTargets = Set(manifest.modules.compactMap(\.testTarget))
        for target in package.targets {
            if target.isTest {
                if !testTargets.contains(target.name) {
                    found.append(
                        error("test target '\(target.name)' is in Package.swift but no module row names it"))
                }
                continue
            }
            guard let row = rows[target.name] else {
                found.append(error("'\(target.name)' is in Package.swift but not in the Modules table"))
                continue
            }
            if row.path != target.path {
                found.append(
                    error(
                        "'\(target.name)': Project.swift.md says path \(row.path), Package.swift \(target.path)"
                    ))
            }
            let declared = Set(row.dependencies.map { $0.components(separatedBy: " (").first ?? $0 })
            let actual = Set(target.targetDependencies + target.productDependencies)
            if declared != actual {
                let missing = actual.subtracting(declared).sorted()
                let extra = declared.subtracting(actual).sorted()
                var parts: [String] = []
                if !missing.isEmpty { parts.append("missing \(missing.joined(separator: ", "))") }
                if !extra.isEmpty { parts.append("not in Package.swift: \(extra.joined(separator: ", "))") }
                found.append(
                    error("'\(target.name)' dependencies disagree: \(parts.joined(separator: "; "))"))
            }
        }
        for row in manifest.modules where !targetNames.contains(row.name) {
            found.append(error("'\(row.name)' is in the Modules table but not in Package.swift"))
        }
        for row in manifest.modules {
            if let test = row.testTarget, !targetNames.contains(test) {
                found.append(error("test target '\(test)' of '\(row.name)' is not in Package.swift"))
            }
        }
        return found
    }

    // (b)
    func layerRules() -> [Diagnostic] {
        guard let manifest, !manifest.allowedLayers.isEmpty else { return [] }
        let layers = Dictionary(
            manifest.modules.map { ($0.name, $0.layer) }, uniquingKeysWith: { first, _ in first })
        let moduleOfTest = Dictionary(
            manifest.modules.compactMap { row in row.testTarget.map { ($0, row.name) } },
            uniquingKeysWith: { first, _ in first })
        var found: [Diagnostic] = []
        for target in package.targets {
            // A test target follows its module's rules, and may use its module.
            let owner = target.isTest ? moduleOfTest[target.name] : target.name
            guard let owner, let layer = layers[owner] else { continue }
            for dependency in target.targetDependencies where dependency != owner {
                guard let dependencyLayer = layers[dependency] else { continue }
                let allowed = manifest.allowedLayers[layer] ?? []
                if layer == "Features" && dependencyLayer == "Features" {
                    if !manifest.featureEdges.contains([owner, dependency]) {
                        found.append(
                            Diagnostic(
                                file: "Package.swift", line: manifestLine(of: target.name), severity: .error,
                                rule: "layers",
                                message:
                                    "feature '\(target.name)' depends on feature '\(dependency)', which is not a parent→child edge in Project.swift.md"
                            ))
                    }
                } else if !allowed.contains(dependencyLayer) {
                    found.append(
                        Diagnostic(
                            file: "Package.swift", line: manifestLine(of: target.name), severity: .error,
                            rule: "layers",
                            message:
                                "'\(target.name)' (\(layer)) depends on '\(dependency)' (\(dependencyLayer)); \(layer) may depend on \(allowed.sorted().joined(separator: ", "))"
                        ))
                }
            }
        }
        return found
    }

    // (c)
    func cycles() -> [Diagnostic] {
        let edges = Dictionary(
            package.targets.map { ($0.name, $0.targetDependencies) }, uniquingKeysWith: { first, _ in first })
        var state: [String: Int] = [:]  // 1 visiting, 2 done
        var stack: [String] = []
        var found: [Diagnostic] = []
        func visit(_ node: String) {
            state[node] = 1
            stack.append(node)
            for next in (edges[node] ?? []).sorted() {
                if state[next] == 1, let start = stack.firstIndex(of: next) {
                    // Start the cycle at its alphabetically first module, so it always reads the same.
                    let members = Array(stack[start...])
                    let first = members.indices.min { members[$0] < members[$1] } ?? 0
                    let rotated = Array(members[first...] + members[..<first])
                    let path = (rotated + [rotated[0]]).joined(separator: " → ")
                    found.append(
                        Diagnostic(
                            file: "Package.swift", line: manifestLine(of: rotated[0]), severity: .error,
                            rule: "cycle",
                            message: "dependency cycle: \(path)"))
                } else if state[next] == nil {
                    visit(next)
                }
            }
            stack.removeLast()
            state[node] = 2
        }
        for name in edges.keys.sorted() where state[name] == nil { visit(name) }
        return found
    }

}
