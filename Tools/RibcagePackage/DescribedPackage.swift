/// A SwiftPM package as the tool sees it: what `swift package describe` reports (targets,
/// sources, resolved dependency names) merged with what only the manifest says (each
/// dependency's package and condition, defines, traits), see ``PackageLoader``.
package struct DescribedPackage: Sendable, Equatable {
    /// The package's name.
    package var name: String
    /// The absolute path of the package's root folder.
    package var path: String
    /// Every target, in the order SwiftPM reports them.
    package var targets: [Target]
    /// The package's products.
    package var products: [Product] = []
    /// The traits a plain `swift build` enables: the `default` trait's, transitively.
    package var enabledTraits: Set<String> = []
    /// The identities of the packages the manifest declares as dependencies; `nil` when
    /// `dump-package` could not read the manifest.
    package var packageDependencies: [String]? = nil
    /// The traits the manifest asks of each package it depends on.
    package var requestedTraits: [String: [String]] = [:]
    /// The folder of each local dependency (`.package(path:)`), absolute, by identity; empty
    /// when `dump-package` could not read the manifest.
    package var localDependencyFolders: [String: String] = [:]
    /// True when the source lists were found by walking the target folders, because
    /// `swift package describe` could not run.
    package var sourcesAreInferred = false

    /// One target of the package.
    package struct Target: Sendable, Equatable {
        /// The target's name.
        package var name: String
        /// SwiftPM's kind: `library`, `executable`, `test`, `system-target`, `macro`, `plugin`,
        /// `snippet`, `binary`.
        package var type: String
        /// `SwiftTarget`, `ClangTarget`, `PluginTarget`, `SystemLibraryTarget`…; empty when
        /// unknown.
        package var moduleType: String
        /// The target's folder, relative to the package root.
        package var path: String
        /// What it depends on, in manifest order.
        package var dependencies: [Dependency]
        /// The target's source files, relative to ``path``.
        package var sources: [String]
        /// Swift `-D` defines from the manifest's settings, with their conditions.
        package var defines: [Define] = []

        /// Targets of the same package this one depends on.
        package var targetDependencies: [String] {
            dependencies.filter { $0.kind == .target }.map(\.name)
        }
        /// Products of other packages this one depends on.
        package var productDependencies: [String] {
            dependencies.filter { $0.kind != .target }.map(\.name)
        }
        /// True for test targets.
        package var isTest: Bool { type == "test" }
        /// True when the target is Swift code (not C, not a system library or binary).
        package var isSwift: Bool {
            moduleType.isEmpty ? sources.contains { $0.hasSuffix(".swift") } : moduleType == "SwiftTarget"
        }

        /// Creates a target; fixtures and tests use this.
        package init(
            name: String, type: String, path: String, targetDependencies: [String] = [],
            productDependencies: [String] = [], sources: [String] = [], moduleType: String = ""
        ) {
            self.init(
                name: name, type: type, moduleType: moduleType, path: path,
                dependencies: targetDependencies.map { Dependency(name: $0, kind: .target) }
                    + productDependencies.map { Dependency(name: $0, kind: .product(package: nil)) },
                sources: sources)
        }

        /// Creates a target with full dependency information.
        package init(
            name: String, type: String, moduleType: String, path: String, dependencies: [Dependency],
            sources: [String], defines: [Define] = []
        ) {
            self.name = name
            self.type = type
            self.moduleType = moduleType
            self.path = path
            self.dependencies = dependencies
            self.sources = sources
            self.defines = defines
        }
    }

    /// A dependency of a target.
    package struct Dependency: Sendable, Equatable, Hashable {
        /// Where the dependency comes from.
        package enum Kind: Sendable, Equatable, Hashable {
            /// A target of the same package.
            case target
            /// A product of another package; the package's identity when the manifest names it.
            case product(package: String?)
        }

        /// The target's or product's name.
        package var name: String
        /// Where it comes from.
        package var kind: Kind
        /// The condition it is declared under: `.when(platforms:)`, `.when(traits:)`.
        package var condition: Condition? = nil

        /// A dependency on `name`.
        package init(name: String, kind: Kind, condition: Condition? = nil) {
            self.name = name
            self.kind = kind
            self.condition = condition
        }

        /// The other package's identity, for a product.
        package var package: String? {
            if case .product(let package) = kind { package } else { nil }
        }
    }

    /// A `.when(…)` condition of a dependency or a setting.
    package struct Condition: Sendable, Equatable, Hashable {
        /// SwiftPM's platform names (`linux`, `macos`, `ios`…); empty means every platform.
        package var platforms: [String] = []
        /// `debug` or `release`, for settings.
        package var configuration: String? = nil
        /// The package traits that enable it; empty means always.
        package var traits: [String] = []

        /// A condition; an empty one always holds.
        package init(platforms: [String] = [], configuration: String? = nil, traits: [String] = []) {
            self.platforms = platforms
            self.configuration = configuration
            self.traits = traits
        }

        /// True when the condition holds on this machine's platform in a debug build with
        /// `enabledTraits`.
        package func holds(on platform: String, enabledTraits: Set<String>) -> Bool {
            (platforms.isEmpty || platforms.contains(platform))
                && (configuration == nil || configuration == "debug")
                && (traits.isEmpty || traits.contains { enabledTraits.contains($0) })
        }

        /// `when(platforms: linux, macos; traits: Foo)`, for graphs.
        package var summary: String {
            var parts: [String] = []
            if !platforms.isEmpty { parts.append(platforms.joined(separator: ", ")) }
            if !traits.isEmpty { parts.append("traits: " + traits.joined(separator: ", ")) }
            if let configuration { parts.append(configuration) }
            return parts.joined(separator: "; ")
        }
    }

    /// A `.define(…)` in a target's Swift settings.
    package struct Define: Sendable, Equatable {
        /// The flag's name.
        package var name: String
        /// When it is set.
        package var condition: Condition?

        /// A define of `name`, set when `condition` holds.
        package init(name: String, condition: Condition? = nil) {
            self.name = name
            self.condition = condition
        }
    }

    /// A product of the package.
    package struct Product: Sendable, Equatable {
        /// The product's name.
        package var name: String
        /// `library`, `executable`, `plugin`, `macro`, `snippet`, `test`.
        package var type: String
        /// The targets it is made of.
        package var targets: [String]

        /// A product called `name` of `type`, made of `targets`.
        package init(name: String, type: String, targets: [String]) {
            self.name = name
            self.type = type
            self.targets = targets
        }
    }

    /// Creates a package description; fixtures and tests use this.
    package init(name: String, path: String, targets: [Target], products: [Product] = []) {
        self.name = name
        self.path = path
        self.targets = targets
        self.products = products
    }

    /// The target called `name`.
    package func target(named name: String) -> Target? {
        targets.first { $0.name == name }
    }
}
