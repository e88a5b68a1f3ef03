import Foundation

/// A package's dependencies at package level, transitively: each package with its resolved
/// version and the packages it depends on, from `swift package show-dependencies --format json`
/// (which resolves the dependencies when they are not yet), and which package owns each product.
package struct PackageDependencies: Sendable, Equatable {
    /// Every package in the tree but the root, once each.
    package var all: [DependencyGraph.ExternalPackage]
    /// The package identity of each product the checkouts' manifests declare.
    package var productOwners: [String: String]

    /// The package that declares the product `name`, when known.
    package func owner(ofProduct name: String) -> String? {
        productOwners[name]
    }

    /// Reads the tree of the package at `root`, resolving it first if needed.
    ///
    /// - Throws: ``RibcageError/manifestUnreadable(path:details:)`` when SwiftPM cannot resolve
    ///   or describe the dependencies.
    package static func load(root: URL) async throws -> PackageDependencies {
        let result = try await Shell.run(
            "swift", ["package", "show-dependencies", "--format", "json"], in: root)
        guard result.succeeded else {
            throw RibcageError.manifestUnreadable(path: root.path, details: result.errorText)
        }
        var dependencies = try parse(result.standardOutput, root: root)
        var owners: [String: String] = [:]
        for (key, _) in await DependencyProducts.modules(root: root, identities: nil) {
            let identity = String(key.prefix { $0 != "/" })
            owners[String(key.dropFirst(identity.count + 1))] = identity
        }
        dependencies.productOwners = owners
        return dependencies
    }

    /// Parses `show-dependencies --format json`: a tree whose root is the package itself.
    package static func parse(_ output: Data, root: URL) throws -> PackageDependencies {
        let json = output.drop { $0 != UInt8(ascii: "{") }
        guard let tree = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else {
            throw RibcageError.manifestUnreadable(
                path: root.path, details: "Unexpected output from swift package show-dependencies")
        }
        var packages: [String: DependencyGraph.ExternalPackage] = [:]
        func visit(_ node: [String: Any]) {
            let children = node["dependencies"] as? [[String: Any]] ?? []
            for child in children {
                guard let identity = child["identity"] as? String else { continue }
                if packages[identity] == nil {
                    let version = child["version"] as? String
                    packages[identity] = DependencyGraph.ExternalPackage(
                        identity: identity, version: version == "unspecified" ? nil : version,
                        url: child["url"] as? String,
                        dependencies: (child["dependencies"] as? [[String: Any]] ?? []).compactMap {
                            $0["identity"] as? String
                        })
                    visit(child)
                }
            }
        }
        visit(tree)
        return PackageDependencies(
            all: packages.values.sorted { $0.identity < $1.identity }, productOwners: [:])
    }
}
