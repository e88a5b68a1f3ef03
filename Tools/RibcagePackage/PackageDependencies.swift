import Foundation

/// A package's dependencies at package level, transitively: each package with its resolved
/// version and the packages it depends on, and which package owns each product.
///
/// Read from what SwiftPM already left on disk when it can (the checkouts recorded in
/// `.build/workspace-state.json` and their manifests, cached per revision), else from
/// `swift package show-dependencies --format json`, which resolves the package first.
package struct PackageDependencies: Sendable, Equatable {
    /// Every package in the tree but the root, once each.
    package var all: [ExternalPackage]
    /// The package identity of each product the checkouts' manifests declare.
    package var productOwners: [String: String]

    /// The package that declares the product `name`, when known.
    package func owner(ofProduct name: String) -> String? {
        productOwners[name]
    }

    /// Reads the tree of `package`, found at `root`: from its checkouts, or, when they are
    /// missing, with `swift package show-dependencies` (and then says so to `note` first).
    ///
    /// - Parameter note: Told before SwiftPM is asked, which may take a while and fetch packages.
    /// - Throws: ``RibcageError/manifestUnreadable(path:details:)`` when SwiftPM cannot resolve
    ///   or describe the dependencies.
    package static func load(
        root: URL, package: DescribedPackage, note: @Sendable (String) -> Void
    ) async throws -> PackageDependencies {
        var dependencies: PackageDependencies
        if let onDisk = try await fromCheckouts(root: root, package: package) {
            dependencies = onDisk
        } else {
            note(
                "note: the dependencies are not all checked out in .build, so SwiftPM resolves them "
                    + "(`swift package show-dependencies`); this may fetch packages.")
            let result = try await Shell.run(
                "swift", ["package", "show-dependencies", "--format", "json"], in: root)
            guard result.succeeded else {
                throw RibcageError.manifestUnreadable(path: root.path, details: result.errorText)
            }
            dependencies = try parse(result.standardOutput, root: root)
        }
        var owners: [String: String] = [:]
        let reached = Set(dependencies.all.map(\.identity))
        for (key, _) in try await DependencyProducts.modules(root: root, identities: reached) {
            let identity = String(key.prefix { $0 != "/" })
            owners[String(key.dropFirst(identity.count + 1))] = identity
        }
        dependencies.productOwners = owners
        return dependencies
    }

    /// The tree as SwiftPM resolved it, from the checkouts in `.build` and their manifests;
    /// `nil` when that record cannot be trusted: a package the tree uses is not checked out,
    /// its manifest cannot be read, or its checkout is not at the revision `Package.resolved`
    /// pins (the pins changed since the last resolve, by a pull or an edit).
    ///
    /// - Throws: What ``DependencyProducts/manifest(of:root:)`` throws: a manifest not read for
    ///   lack of descriptors, or a cancelled run, is no reason to distrust the record.
    ///
    /// As SwiftPM does, the root keeps every package it declares, and any other package keeps
    /// those its non-test targets use under the traits asked of it: its test targets are never
    /// built as a dependency, and a dependency declared `.when(traits:)` counts only when one of
    /// those traits is on (swift-configuration, asked for no traits, needs no swift-log). Only
    /// the manifests of packages the tree reaches are read.
    package static func fromCheckouts(root: URL, package: DescribedPackage) async throws
        -> PackageDependencies?
    {
        guard let declared = package.packageDependencies else { return nil }
        if declared.isEmpty { return PackageDependencies(all: [], productOwners: [:]) }
        let checkouts = Dictionary(
            DependencyProducts.checkouts(root: root).map { ($0.identity, $0) },
            uniquingKeysWith: { first, _ in first })
        var reader = ManifestReader(root: root, checkouts: checkouts)

        // The traits each package is asked for by those that reach it decide which of its
        // trait-conditioned dependencies count, and so what is reached: repeat until stable.
        var requested: [String: Set<String>] = [:]
        for identity in declared {
            requested[identity, default: []].formUnion(package.requestedTraits[identity] ?? ["default"])
        }
        while true {
            var dependenciesOf: [String: [String]] = [:]
            var asked = requested
            var frontier = Set(declared)
            while !frontier.isEmpty {
                // A package the tree uses must be there as resolved; reading the frontier's
                // manifests together lets them be dumped side by side on a cold cache.
                guard let manifests = try await reader.manifests(of: frontier) else { return nil }
                var next: Set<String> = []
                for identity in frontier.sorted() {
                    guard let manifest = manifests[identity] else { continue }
                    let traits = manifest.traits(enabledBy: requested[identity] ?? [])
                    let owners = try await reader.ownersOfUnnamedProducts(in: manifest)
                    let used = Set(
                        manifest.targets.filter { $0.type != "test" }.flatMap { target in
                            target.dependencies.filter { dependency in
                                let conditions = dependency.condition?.traits ?? []
                                return conditions.isEmpty || !traits.isDisjoint(with: conditions)
                            }
                            .compactMap { owner(of: $0, in: manifest, owners: owners) }
                                + target.pluginPackages
                        })
                    let dependencies = manifest.packageDependencies.filter { used.contains($0) }
                    dependenciesOf[identity] = dependencies
                    for dependency in dependencies {
                        asked[dependency, default: []].formUnion(
                            manifest.requestedTraits[dependency] ?? ["default"])
                    }
                    next.formUnion(dependencies)
                }
                frontier = next.subtracting(dependenciesOf.keys)
            }
            guard asked == requested else {
                requested = asked
                continue
            }
            let all = dependenciesOf.keys.sorted().compactMap { identity in
                checkouts[identity].map { checkout in
                    ExternalPackage(
                        identity: identity, version: checkout.version, url: checkout.location,
                        dependencies: dependenciesOf[identity] ?? [])
                }
            }
            return PackageDependencies(all: all, productOwners: [:])
        }
    }

    /// Reads the manifests of the checkouts a walk of the tree reaches, each once.
    private struct ManifestReader {
        let root: URL
        let checkouts: [String: DependencyProducts.Checkout]
        let pins: [String: String]
        var read: [String: ManifestDump?] = [:]

        init(root: URL, checkouts: [String: DependencyProducts.Checkout]) {
            self.root = root
            self.checkouts = checkouts
            pins = DependencyProducts.pinnedRevisions(root: root)
        }

        /// The manifests of `identities`, or `nil` when one is not checked out as
        /// `Package.resolved` pins it or cannot be read.
        mutating func manifests(of identities: Set<String>) async throws -> [String: ManifestDump]? {
            var wanted: [DependencyProducts.Checkout] = []
            for identity in identities where read[identity] == nil {
                guard let checkout = checkouts[identity], isCurrent(checkout) else { return nil }
                wanted.append(checkout)
            }
            read.merge(try await DependencyProducts.manifests(of: wanted, root: root)) { first, _ in first }
            var manifests: [String: ManifestDump] = [:]
            for identity in identities {
                guard let manifest = read[identity] ?? nil else { return nil }
                manifests[identity] = manifest
            }
            return manifests
        }

        /// False when the checkout's folder is gone, or `Package.resolved` pins its package
        /// elsewhere or no longer pins it at all. A local or edited package (stamped by date)
        /// has no pin to match.
        func isCurrent(_ checkout: DependencyProducts.Checkout) -> Bool {
            let manifest = checkout.folder.appendingPathComponent("Package.swift")
            guard FileManager.default.fileExists(atPath: manifest.path) else { return false }
            if checkout.revision.hasPrefix("mtime-") || pins.isEmpty { return true }
            return pins[checkout.identity] == checkout.revision
        }

        /// For a manifest with product dependencies that name no package, the package among
        /// those it declares that declares each such product; those manifests are read too.
        mutating func ownersOfUnnamedProducts(in manifest: ManifestDump) async throws -> [String: String] {
            let unnamed = manifest.targets.flatMap(\.dependencies).filter {
                $0.kind == .product(package: nil)
            }
            guard !unnamed.isEmpty else { return [:] }
            let candidates = manifest.packageDependencies.filter { checkouts[$0] != nil }
            let missing = candidates.filter { read[$0] == nil }.compactMap { checkouts[$0] }
            read.merge(try await DependencyProducts.manifests(of: missing, root: root)) { first, _ in first }
            var owners: [String: String] = [:]
            for dependency in unnamed {
                owners[dependency.name] = candidates.first { identity in
                    (read[identity] ?? nil)?.products.contains { $0.name == dependency.name } ?? false
                }
            }
            return owners
        }
    }

    /// The package, among those `manifest` declares, whose product `dependency` is: the one it
    /// names, else the one `owners` found declaring a product of that name.
    private static func owner(
        of dependency: DescribedPackage.Dependency, in manifest: ManifestDump, owners: [String: String]
    ) -> String? {
        guard case .product(let named) = dependency.kind else { return nil }
        if let named { return manifest.packageDependencies.first { $0 == named.lowercased() } }
        return owners[dependency.name]
    }

    /// Parses `show-dependencies --format json`: a tree whose root is the package itself.
    package static func parse(_ output: Data, root: URL) throws -> PackageDependencies {
        let json = output.drop { $0 != UInt8(ascii: "{") }
        guard let tree = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else {
            throw RibcageError.manifestUnreadable(
                path: root.path, details: "Unexpected output from swift package show-dependencies")
        }
        var packages: [String: ExternalPackage] = [:]
        func visit(_ node: [String: Any]) {
            let children = node["dependencies"] as? [[String: Any]] ?? []
            for child in children {
                guard let identity = child["identity"] as? String else { continue }
                if packages[identity] == nil {
                    let version = child["version"] as? String
                    packages[identity] = ExternalPackage(
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
