import Foundation

/// What `swift package dump-package` says of a manifest, which needs no dependency resolution:
/// each dependency's package and `.when(…)` condition, Swift defines, products and traits.
package struct ManifestDump: Sendable, Equatable {
    /// The package's name.
    package var name: String
    /// The targets, in manifest order.
    package var targets: [Target]
    package var products: [DescribedPackage.Product]
    /// The traits a plain build enables: `default`'s, transitively.
    package var enabledTraits: Set<String>
    /// The identities of the packages it declares as dependencies, in manifest order.
    package var packageDependencies: [String]
    /// The traits it asks of each package it depends on (`["default"]` unless it says).
    package var requestedTraits: [String: [String]] = [:]
    /// The folder of each local dependency (`.package(path:)`), absolute, by identity.
    package var localDependencyFolders: [String: String] = [:]
    /// The traits each of its traits enables, `default` included.
    package var traitImplications: [String: [String]] = [:]

    /// A target as the manifest declares it.
    package struct Target: Sendable, Equatable {
        package var name: String
        /// `regular`, `executable`, `test`, `system`, `binary`, `plugin`, `macro`.
        package var type: String
        /// The `path:` argument, if given.
        package var path: String?
        /// `exclude:`, relative to the target folder.
        package var exclude: [String]
        /// `sources:`, relative to the target folder, if given.
        package var sources: [String]?
        /// Dependencies; a by-name one is `.target` when the package has a target of that name.
        package var dependencies: [DescribedPackage.Dependency]
        /// Swift `-D` defines.
        package var defines: [DescribedPackage.Define]
        /// The packages of the plugins it uses from other packages
        /// (`plugins: [.plugin(name:package:)]`).
        package var pluginPackages: [String] = []
    }

    /// Parses the JSON `dump-package` prints.
    package init(json: Data) throws {
        guard let document = try JSONSerialization.jsonObject(with: json) as? [String: Any],
            let targets = document["targets"] as? [[String: Any]]
        else {
            throw RibcageError.manifestUnreadable(path: "", details: "unexpected dump-package JSON")
        }
        name = document["name"] as? String ?? ""
        let targetNames = Set(targets.compactMap { $0["name"] as? String })
        self.targets = targets.compactMap { Self.target($0, targetNames: targetNames) }
        products = (document["products"] as? [[String: Any]] ?? []).compactMap { product in
            guard let name = product["name"] as? String else { return nil }
            let kind = (product["type"] as? [String: Any])?.keys.sorted().first ?? "library"
            return DescribedPackage.Product(
                name: name, type: kind, targets: product["targets"] as? [String] ?? [])
        }
        // Traits: `default` enables some, each of which may enable others.
        var enables: [String: [String]] = [:]
        for trait in document["traits"] as? [[String: Any]] ?? [] {
            if let name = trait["name"] as? String {
                enables[name] = trait["enabledTraits"] as? [String] ?? []
            }
        }
        var enabled: Set<String> = []
        var pending = enables["default"] ?? []
        while let trait = pending.popLast() {
            if enabled.insert(trait).inserted { pending += enables[trait] ?? [] }
        }
        enabledTraits = enabled
        traitImplications = enables
        // Each dependency is `{"sourceControl": [{"identity": …, "traits": […]}]}`, or
        // `fileSystem`, or `registry`.
        var identities: [String] = []
        for dependency in document["dependencies"] as? [[String: Any]] ?? [] {
            for kind in dependency.values {
                guard let details = (kind as? [[String: Any]])?.first,
                    let identity = details["identity"] as? String
                else { continue }
                identities.append(identity)
                if dependency["fileSystem"] != nil, let path = details["path"] as? String {
                    localDependencyFolders[identity] = path
                }
                let traits = (details["traits"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
                requestedTraits[identity] = traits ?? ["default"]
                break
            }
        }
        packageDependencies = identities
    }

    private static func target(_ json: [String: Any], targetNames: Set<String>) -> Target? {
        guard let name = json["name"] as? String, let type = json["type"] as? String else { return nil }
        var dependencies: [DescribedPackage.Dependency] = []
        for dependency in json["dependencies"] as? [[String: Any]] ?? [] {
            if let byName = dependency["byName"] as? [Any], let dependencyName = byName.first as? String {
                // Without resolution, a name is a target if the package has one by that name.
                let kind: DescribedPackage.Dependency.Kind =
                    targetNames.contains(dependencyName) ? .target : .product(package: nil)
                dependencies.append(
                    .init(name: dependencyName, kind: kind, condition: condition(byName.last)))
            } else if let target = dependency["target"] as? [Any],
                let dependencyName = target.first as? String
            {
                dependencies.append(
                    .init(name: dependencyName, kind: .target, condition: condition(target.last)))
            } else if let product = dependency["product"] as? [Any],
                let dependencyName = product.first as? String
            {
                let package = product.count > 1 ? product[1] as? String : nil
                dependencies.append(
                    .init(
                        name: dependencyName, kind: .product(package: package),
                        condition: condition(product.last)))
            }
        }
        var defines: [DescribedPackage.Define] = []
        for setting in json["settings"] as? [[String: Any]] ?? [] where setting["tool"] as? String == "swift"
        {
            guard let kind = setting["kind"] as? [String: Any], let define = kind["define"] as? [String: Any],
                let flag = define["_0"] as? String
            else { continue }
            // `-DNAME=VALUE` is not a condition `#if` can test; only the name matters.
            let flagName = String(flag.prefix { $0 != "=" })
            defines.append(.init(name: flagName, condition: condition(setting["condition"])))
        }
        // `{"plugin": ["Name", "package"]}`; the package is null for a plugin of the same package.
        let pluginPackages = (json["pluginUsages"] as? [[String: Any]] ?? []).compactMap { usage in
            ((usage["plugin"] as? [Any])?.dropFirst().first as? String)?.lowercased()
        }
        return Target(
            name: name, type: type, path: json["path"] as? String,
            exclude: json["exclude"] as? [String] ?? [],
            sources: json["sources"] as? [String], dependencies: dependencies, defines: defines,
            pluginPackages: pluginPackages)
    }

    private static func condition(_ json: Any?) -> DescribedPackage.Condition? {
        guard let json = json as? [String: Any] else { return nil }
        let condition = DescribedPackage.Condition(
            platforms: json["platformNames"] as? [String] ?? [], configuration: json["config"] as? String,
            traits: json["traits"] as? [String] ?? [])
        return condition == DescribedPackage.Condition() ? nil : condition
    }

    /// The traits that `requested` turns on, with those they enable, transitively; `default`
    /// stands for the package's default traits.
    package func traits(enabledBy requested: some Sequence<String>) -> Set<String> {
        var enabled: Set<String> = []
        var pending = Array(requested)
        while let trait = pending.popLast() {
            if enabled.insert(trait).inserted { pending += traitImplications[trait] ?? [] }
        }
        return enabled
    }

    /// Adds what only the manifest knows to a package `describe` read: each dependency's
    /// package and condition, defines, traits.
    package func annotate(_ package: inout DescribedPackage) {
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for index in package.targets.indices {
            guard let declared = byName[package.targets[index].name] else { continue }
            let declaredByName = Dictionary(
                declared.dependencies.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            package.targets[index].dependencies = package.targets[index].dependencies.map { dependency in
                guard let declaredDependency = declaredByName[dependency.name] else { return dependency }
                var annotated = dependency
                annotated.condition = declaredDependency.condition
                if case .product = dependency.kind, let packageName = declaredDependency.package {
                    annotated.kind = .product(package: packageName)
                }
                return annotated
            }
            package.targets[index].defines = declared.defines
        }
        package.enabledTraits = enabledTraits
        package.packageDependencies = packageDependencies
        package.localDependencyFolders = localDependencyFolders
        package.requestedTraits = requestedTraits
    }

    /// The package as the manifest alone describes it, each target's sources found by walking
    /// its folder the way SwiftPM does (`path:`, else `Sources/<name>` or its siblings).
    package func package(root: URL) -> DescribedPackage {
        let converted = targets.map { target in
            let type =
                switch target.type {
                case "regular": "library"
                case "system": "system-target"
                default: target.type
                }
            let path = target.path ?? Self.defaultPath(of: target, root: root)
            let sources = Self.sources(of: target, folder: root.appendingPathComponent(path))
            let moduleType =
                switch target.type {
                case "system": "SystemLibraryTarget"
                case "binary": "BinaryTarget"
                case "plugin": "PluginTarget"
                default: sources.contains { $0.hasSuffix(".swift") } ? "SwiftTarget" : "ClangTarget"
                }
            return DescribedPackage.Target(
                name: target.name, type: type, moduleType: moduleType, path: path,
                dependencies: target.dependencies, sources: sources, defines: target.defines)
        }
        var package = DescribedPackage(name: name, path: root.path, targets: converted, products: products)
        package.enabledTraits = enabledTraits
        package.packageDependencies = packageDependencies
        package.localDependencyFolders = localDependencyFolders
        package.requestedTraits = requestedTraits
        package.sourcesAreInferred = true
        return package
    }

    private static func defaultPath(of target: Target, root: URL) -> String {
        let parents =
            switch target.type {
            case "test": ["Tests", "Sources", "Source", "src", "srcs"]
            case "plugin": ["Plugins"]
            default: ["Sources", "Source", "src", "srcs"]
            }
        let found = parents.first {
            FileManager.default.fileExists(atPath: root.appendingPathComponent("\($0)/\(target.name)").path)
        }
        return "\(found ?? parents[0])/\(target.name)"
    }

    /// Every file under `folder` (relative to it), minus `exclude`, or only `sources` if given.
    private static func sources(of target: Target, folder: URL) -> [String] {
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        let prefix = folder.standardizedFileURL.path + "/"
        var files: [String] = []
        for case let file as URL in walker {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else {
                continue
            }
            let relative = String(file.standardizedFileURL.path.dropFirst(prefix.count))
            let within = { (list: [String]) in
                list.contains { relative == $0 || relative.hasPrefix($0 + "/") }
            }
            if within(target.exclude) { continue }
            if let listed = target.sources, !within(listed) { continue }
            files.append(relative)
        }
        return files.sorted()
    }
}
