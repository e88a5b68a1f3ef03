import BlockingWork
import Foundation

/// Reads a package with SwiftPM: `swift package describe --type json` for the targets as
/// SwiftPM resolved them (kinds, sources, which names are targets and which products), and
/// `swift package dump-package` for what only the manifest holds (each product's package,
/// `.when(platforms:)` and `.when(traits:)` conditions, defines, traits). The two run at once.
///
/// When `describe` cannot run (typically because dependencies cannot be resolved), the manifest
/// alone is used and each target's sources are found by walking its folder, as SwiftPM does.
package enum PackageLoader {
    /// Loads the package at `root`.
    ///
    /// - Parameter note: Told when `describe` failed and the package was read from its manifest
    ///   alone, which the user should know: SwiftPM's view may differ.
    /// - Throws: ``RibcageError/manifestUnreadable(path:details:)`` when SwiftPM can read the
    ///   manifest neither way.
    package static func load(
        packageAt root: URL, note: @Sendable (String) -> Void
    ) async throws -> DescribedPackage {
        async let describeRun = Shell.run("swift", ["package", "describe", "--type", "json"], in: root)
        async let dumpRun = Shell.run("swift", ["package", "dump-package"], in: root)
        let (described, dumped) = (try await describeRun, try await dumpRun)

        let manifest: ManifestDump? = dumped.succeeded ? try? ManifestDump(json: dumped.standardOutput) : nil
        guard described.succeeded else {
            guard let manifest else {
                throw RibcageError.manifestUnreadable(path: root.path, details: described.errorText)
            }
            note(
                "note: `swift package describe` failed, so the package was read from its manifest "
                    + "(`swift package dump-package`) and each target's sources were found in its folder.")
            // Walking every target's folder blocks on the file system: off the cooperative pool.
            return await DedicatedThread.run(named: "ribcage-source-walk") {
                manifest.package(root: root)
            }
        }
        var package = try decodeDescription(described.standardOutput, root: root)
        if let manifest { manifest.annotate(&package) }
        return package
    }

    /// Decodes `swift package describe --type json`.
    package static func decodeDescription(_ output: Data, root: URL) throws -> DescribedPackage {
        do {
            // SwiftPM may print resolution progress before the document; start at its first brace.
            let json = output.drop { $0 != UInt8(ascii: "{") }
            let document = try JSONDecoder().decode(DescribeDocument.self, from: Data(json))
            return DescribedPackage(
                name: document.name, path: document.path,
                targets: document.targets.map { target in
                    DescribedPackage.Target(
                        name: target.name, type: target.type, moduleType: target.moduleType ?? "",
                        path: target.path,
                        dependencies: (target.targetDependencies ?? []).map { .init(name: $0, kind: .target) }
                            + (target.productDependencies ?? []).map {
                                .init(name: $0, kind: .product(package: nil))
                            },
                        sources: target.sources ?? [])
                },
                products: (document.products ?? []).map {
                    DescribedPackage.Product(name: $0.name, type: $0.kind, targets: $0.targets)
                })
        } catch {
            throw RibcageError.manifestUnreadable(
                path: root.path, details: "Unexpected JSON from swift package describe: \(error)")
        }
    }

    private struct DescribeDocument: Decodable {
        var name: String
        var path: String
        var targets: [TargetDocument]
        var products: [ProductDocument]?

        struct TargetDocument: Decodable {
            var name: String
            var type: String
            var moduleType: String?
            var path: String
            var targetDependencies: [String]?
            var productDependencies: [String]?
            var sources: [String]?

            enum CodingKeys: String, CodingKey {
                case name, type, path, sources
                case moduleType = "module_type"
                case targetDependencies = "target_dependencies"
                case productDependencies = "product_dependencies"
            }
        }

        struct ProductDocument: Decodable {
            var name: String
            var targets: [String]
            var kind: String

            enum CodingKeys: String, CodingKey { case name, targets, type }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                name = try container.decode(String.self, forKey: .name)
                targets = try container.decode([String].self, forKey: .targets)
                // `"type": {"library": ["automatic"]}`: the kind is the single key.
                let kinds = try container.decode([String: AnyDecodable].self, forKey: .type)
                kind = kinds.keys.sorted().first ?? "library"
            }
        }

        struct AnyDecodable: Decodable {
            init(from decoder: any Decoder) throws {}
        }
    }
}
