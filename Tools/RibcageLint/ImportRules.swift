import RibcagePackage

/// The checks of each target's imports against its declared dependencies: (d) every import is
/// declared, (e) every declaration is imported.
extension Linter {
    /// SwiftPM's name for this machine's platform in `.when(platforms:)`.
    private static var hostPlatform: String { BuildConditions.hostOperatingSystem.lowercased() }

    /// What one target's sources import that it does not declare, and declare but never import.
    private struct TargetImports {
        var target: DescribedPackage.Target
        var undeclared: [(file: String, reference: ImportReference)] = []
        var unimported: [DescribedPackage.Dependency] = []
    }

    func importChecks() -> [Diagnostic] {
        let targetsByName = Dictionary(
            package.targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var found: [Diagnostic] = []
        for result in analyzeImports(targets: targetsByName) {
            let target = result.target
            for (file, reference) in result.undeclared {
                let via =
                    transitivePath(from: target, to: reference.module, targets: targetsByName)
                    .map { " (it is reached only through \($0))" } ?? ""
                found.append(
                    Diagnostic(
                        file: file, line: reference.line, severity: .error, rule: "implicit-import",
                        message:
                            "'\(target.name)' imports '\(reference.module)', which is not one of its declared dependencies\(via)"
                    ))
            }
            for dependency in result.unimported {
                found.append(
                    Diagnostic(
                        file: "Package.swift", line: manifestLine(of: target.name), severity: .warning,
                        rule: "redundant-dependency",
                        message: "'\(target.name)' declares '\(dependency.name)' but never imports it"))
            }
        }
        return found
    }

    /// The identities of the packages whose products' modules could change a finding: those of
    /// the products declared by a target that has a finding. `nil` means every package, because
    /// a product is named without its package.
    package func packagesWhoseProductsMatter() -> Set<String>? {
        let targetsByName = Dictionary(
            package.targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var identities: Set<String> = []
        for result in analyzeImports(targets: targetsByName)
        where !result.undeclared.isEmpty || !result.unimported.isEmpty {
            for dependency in result.target.dependencies where dependency.kind != .target {
                guard let package = dependency.package else { return nil }
                identities.insert(package.lowercased())
            }
        }
        return identities
    }

    private func analyzeImports(targets targetsByName: [String: DescribedPackage.Target]) -> [TargetImports] {
        var results: [TargetImports] = []
        // Targets with Swift sources; C targets' `#include`s are not imports.
        for target in package.targets {
            let files = sources[target.name] ?? []
            guard !files.isEmpty else { continue }
            var result = TargetImports(target: target)
            let declared = declaredModules(of: target)
            let build = BuildConditions(
                toolchain: toolchain, flags: flags(for: target),
                importable: toolchain.modules.union(declared).union([target.name]))
            let sdk = target.type == "plugin" ? PlatformModules.pluginAPI : []
            var used: Set<String> = []
            for file in files {
                for reference in file.references {
                    used.insert(reference.module)
                    guard reference.form == .import, reference.module != target.name,
                        !declared.contains(reference.module),
                        !toolchain.modules.contains(reference.module),
                        !PlatformModules.otherPlatforms.contains(reference.module),
                        !sdk.contains(reference.module),
                        // Not compiled on this platform in a debug build: nothing to check here.
                        reference.condition?.evaluate(in: build) != false
                    else { continue }
                    result.undeclared.append((file.path, reference))
                }
            }
            if !Self.importsNothingByDesign(target) {
                // In this workspace's format a test target gets its module's dependencies by
                // construction (Project.swift.md's Table format); elsewhere each is written by hand.
                let inherited =
                    manifest == nil ? [] : Self.inheritedDependencies(of: target, targets: targetsByName)
                result.unimported = target.dependencies.filter { dependency in
                    modules(of: dependency).allSatisfy { !used.contains($0) }
                        && !isBuiltRatherThanImported(dependency, targets: targetsByName)
                        && !inherited.contains(dependency.name)
                }
            }
            results.append(result)
        }
        return results
    }

    /// For a test target, the dependencies of the targets it tests: a workspace in Ribcage's
    /// format hands a test target its module's dependencies, so one the tests do not import is
    /// not redundant there.
    private static func inheritedDependencies(
        of target: DescribedPackage.Target, targets: [String: DescribedPackage.Target]
    ) -> Set<String> {
        guard target.isTest else { return [] }
        var inherited: Set<String> = []
        for dependency in target.dependencies where dependency.kind == .target {
            for own in targets[dependency.name]?.dependencies ?? [] { inherited.insert(own.name) }
        }
        return inherited
    }

    /// The modules `target` may import: its target dependencies and the modules of its products.
    private func declaredModules(of target: DescribedPackage.Target) -> Set<String> {
        Set(target.dependencies.flatMap { modules(of: $0) })
    }

    /// The modules a dependency brings: a target is one module; a product is the modules its
    /// package puts in it, when known, else the module of its own name.
    private func modules(of dependency: DescribedPackage.Dependency) -> [String] {
        switch dependency.kind {
        case .target: [dependency.name]
        case .product(let package?):
            productModules["\(package.lowercased())/\(dependency.name)"] ?? [dependency.name]
        case .product(nil):
            // Named without its package: the first package that has a product of that name.
            productModules.keys.sorted().first { $0.hasSuffix("/\(dependency.name)") }
                .flatMap { productModules[$0] } ?? [dependency.name]
        }
    }

    /// The flags `#if` sees for `target` in a debug build here: `DEBUG`, the package's enabled
    /// traits, and the target's defines whose conditions hold.
    private func flags(for target: DescribedPackage.Target) -> Set<String> {
        var flags: Set<String> = ["DEBUG"]
        flags.formUnion(package.enabledTraits)
        for define in target.defines
        where define.condition?.holds(on: Self.hostPlatform, enabledTraits: package.enabledTraits) ?? true {
            flags.insert(define.name)
        }
        return flags
    }

    /// Plugins' dependencies are the tools they run, and a snippet may use any library of its
    /// package: neither imports what it depends on.
    private static func importsNothingByDesign(_ target: DescribedPackage.Target) -> Bool {
        ["plugin", "snippet"].contains(target.type)
    }

    /// A dependency on a macro implementation (used through `#externalMacro`), an executable
    /// (built to be run, e.g. by tests) or a plugin is never imported.
    private func isBuiltRatherThanImported(
        _ dependency: DescribedPackage.Dependency, targets: [String: DescribedPackage.Target]
    ) -> Bool {
        if dependency.kind == .target, let target = targets[dependency.name] {
            return ["macro", "executable", "plugin"].contains(target.type)
        }
        return false
    }

    /// `'NIOCore'` or `'NIOPosix' → 'NIOCore'`: the shortest chain of declared target
    /// dependencies through which `module`, a target of this package, reaches `target`'s build.
    private func transitivePath(
        from target: DescribedPackage.Target, to module: String, targets: [String: DescribedPackage.Target]
    ) -> String? {
        guard targets[module] != nil else { return nil }
        var previous: [String: String] = [:]
        var queue = target.targetDependencies
        for name in queue { previous[name] = target.name }
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            for next in targets[current]?.targetDependencies ?? [] where previous[next] == nil {
                previous[next] = current
                if next == module {
                    var chain: [String] = []
                    var step = current
                    while step != target.name {
                        chain.insert("'\(step)'", at: 0)
                        step = previous[step] ?? target.name
                    }
                    return chain.joined(separator: " → ")
                }
                queue.append(next)
            }
        }
        return nil
    }
}
