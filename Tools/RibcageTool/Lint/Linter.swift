import Foundation

/// A lint finding, printed compiler-style: `path:line: error: message [rule]`.
public struct Diagnostic: Sendable, Equatable, Codable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable, Codable {
        case error, warning
    }

    /// The file, relative to the package root.
    public var file: String
    /// The line, from 1.
    public var line: Int
    /// Error or warning.
    public var severity: Severity
    /// The rule: `manifest`, `layers`, `cycle`, `implicit-import` or `redundant-dependency`.
    public var rule: String
    /// What is wrong.
    public var message: String

    /// `path:line: error: message [rule]`.
    public var description: String { "\(file):\(line): \(severity.rawValue): \(message) [\(rule)]" }
}

/// Checks a package against its Project.swift.md and its own sources:
/// (a) the manifest agrees with Package.swift, (b) dependencies follow the layer rules,
/// (c) there are no cycles, (d) every import is a declared dependency, (e) every declared
/// dependency is imported.
public struct Linter: Sendable {
    /// The package, as `swift package describe` reports it.
    public var package: DescribedPackage
    /// Its Project.swift.md, if it has one; checks (a) and (b) need it.
    public var manifest: ProjectManifest?
    /// Each target's sources: file path (relative to the root) and text.
    public var sources: [String: [(path: String, text: String)]]

    /// Modules of the toolchain, which need no declaration.
    public static let toolchainModules: Set<String> = [
        "Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization",
        "FoundationNetworking",
        "FoundationXML", "CoreFoundation", "Dispatch", "Glibc", "Musl", "Darwin", "WinSDK", "Android",
        "Bionic",
        "Synchronization", "Observation", "Distributed", "RegexBuilder", "_Concurrency", "_StringProcessing",
        "Testing", "XCTest", "os",
    ]

    /// Creates a linter.
    public init(
        package: DescribedPackage, manifest: ProjectManifest?,
        sources: [String: [(path: String, text: String)]]
    ) {
        self.package = package
        self.manifest = manifest
        self.sources = sources
    }

    /// Reads the sources of every target of `package` from disk.
    public static func readSources(of package: DescribedPackage, root: URL) -> [String: [(
        path: String, text: String
    )]] {
        var result: [String: [(path: String, text: String)]] = [:]
        for target in package.targets {
            result[target.name] = target.sources.filter { $0.hasSuffix(".swift") }.compactMap { source in
                let relative = "\(target.path)/\(source)"
                guard
                    let text = try? String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
                else {
                    return nil
                }
                return (relative, text)
            }
        }
        return result
    }

    /// Every finding, sorted by file and line.
    public func diagnostics() -> [Diagnostic] {
        var found = manifestAgreement() + layerRules() + cycles() + importChecks()
        found.sort { ($0.file, $0.line, $0.message) < ($1.file, $1.line, $1.message) }
        return found
    }

    private var targetNames: Set<String> { Set(package.targets.map(\.name)) }

    // (a)
    private func manifestAgreement() -> [Diagnostic] {
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
    private func layerRules() -> [Diagnostic] {
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
                                file: "Package.swift", line: 1, severity: .error, rule: "layers",
                                message:
                                    "feature '\(target.name)' depends on feature '\(dependency)', which is not a parent→child edge in Project.swift.md"
                            ))
                    }
                } else if !allowed.contains(dependencyLayer) {
                    found.append(
                        Diagnostic(
                            file: "Package.swift", line: 1, severity: .error, rule: "layers",
                            message:
                                "'\(target.name)' (\(layer)) depends on '\(dependency)' (\(dependencyLayer)); \(layer) may depend on \(allowed.sorted().joined(separator: ", "))"
                        ))
                }
            }
        }
        return found
    }

    // (c)
    private func cycles() -> [Diagnostic] {
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
                            file: "Package.swift", line: 1, severity: .error, rule: "cycle",
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

    // (d) and (e)
    private func importChecks() -> [Diagnostic] {
        var found: [Diagnostic] = []
        for target in package.targets where target.type != "system-target" {
            let declared = Set(target.targetDependencies + target.productDependencies)
            var used: Set<String> = []
            for file in sources[target.name] ?? [] {
                for reference in ImportScanner.references(in: file.text) {
                    used.insert(reference.module)
                    guard reference.form == .import, reference.module != target.name,
                        !Self.toolchainModules.contains(reference.module),
                        !declared.contains(reference.module)
                    else { continue }
                    found.append(
                        Diagnostic(
                            file: file.path, line: reference.line, severity: .error, rule: "implicit-import",
                            message:
                                "'\(target.name)' imports '\(reference.module)', which is not one of its declared dependencies"
                        ))
                }
            }
            for dependency in declared.subtracting(used).sorted() where sources[target.name] != nil {
                found.append(
                    Diagnostic(
                        file: "Package.swift", line: 1, severity: .warning, rule: "redundant-dependency",
                        message: "'\(target.name)' declares '\(dependency)' but never imports it"))
            }
        }
        return found
    }
}
