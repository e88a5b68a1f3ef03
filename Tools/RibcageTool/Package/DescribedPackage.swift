import Foundation

/// A SwiftPM package as `swift package describe --type json` reports it.
///
/// Only the fields the tool relies on are decoded; SwiftPM adds fields over time, and unknown
/// ones are ignored.
public struct DescribedPackage: Decodable, Sendable, Equatable {
    /// The package's name.
    public var name: String
    /// The absolute path of the package's root folder.
    public var path: String
    /// Every target, in the order SwiftPM reports them.
    public var targets: [Target]

    /// One target of the package.
    public struct Target: Decodable, Sendable, Equatable {
        /// The target's name.
        public var name: String
        /// SwiftPM's kind: `library`, `executable`, `test`, `system-target`, `macro`, `plugin`…
        public var type: String
        /// The target's folder, relative to the package root.
        public var path: String
        /// Targets of the same package this one depends on.
        public var targetDependencies: [String]
        /// Products of other packages this one depends on.
        public var productDependencies: [String]
        /// The target's source files, relative to ``path``.
        public var sources: [String]

        /// True for test targets.
        public var isTest: Bool { type == "test" }

        enum CodingKeys: String, CodingKey {
            case name, type, path
            case targetDependencies = "target_dependencies"
            case productDependencies = "product_dependencies"
            case sources
        }

        /// Creates a target description; fixtures and tests use this.
        public init(
            name: String, type: String, path: String, targetDependencies: [String] = [],
            productDependencies: [String] = [], sources: [String] = []
        ) {
            self.name = name
            self.type = type
            self.path = path
            self.targetDependencies = targetDependencies
            self.productDependencies = productDependencies
            self.sources = sources
        }

        /// Decodes a target, treating missing dependency lists as empty, as SwiftPM omits them.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            type = try container.decode(String.self, forKey: .type)
            path = try container.decode(String.self, forKey: .path)
            targetDependencies =
                try container.decodeIfPresent([String].self, forKey: .targetDependencies) ?? []
            productDependencies =
                try container.decodeIfPresent([String].self, forKey: .productDependencies) ?? []
            sources = try container.decodeIfPresent([String].self, forKey: .sources) ?? []
        }
    }

    /// Creates a package description; fixtures and tests use this.
    public init(name: String, path: String, targets: [Target]) {
        self.name = name
        self.path = path
        self.targets = targets
    }

    /// Runs `swift package describe --type json` in `root` and decodes its answer.
    ///
    /// - Throws: ``RibcageError/manifestUnreadable(path:details:)`` when SwiftPM cannot describe the
    ///   package, for example because `Package.swift` does not compile.
    public static func describe(packageAt root: URL) throws -> DescribedPackage {
        let result = try Shell.run("swift", ["package", "describe", "--type", "json"], in: root)
        guard result.succeeded else {
            throw RibcageError.manifestUnreadable(path: root.path, details: result.errorText)
        }
        do {
            // SwiftPM may print resolution progress before the document; start at its first brace.
            let json = result.standardOutput.drop { $0 != UInt8(ascii: "{") }
            return try JSONDecoder().decode(DescribedPackage.self, from: Data(json))
        } catch {
            throw RibcageError.manifestUnreadable(
                path: root.path, details: "Unexpected JSON from swift package describe: \(error)")
        }
    }
}
