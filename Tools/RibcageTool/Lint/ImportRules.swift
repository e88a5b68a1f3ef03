/// The checks of each target's imports against its declared dependencies: (d) every import is
/// declared, (e) every declaration is imported.
extension Linter {
    /// SwiftPM's name for this machine's platform in `.when(platforms:)`.
    private static var hostPlatform: String { BuildConditions.hostOperatingSystem.lowercased() }

    func importChecks() -> [Diagnostic] {
        var found: [Diagnostic] = []
        let targetsByName = Dictionary(
            package.targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        // Targets with Swift sources; C targets' `#include`s are not imports.
        for target in package.targets {
            let files = sources[target.name] ?? []
            guard !files.isEmpty else { continue }
            let declared = declaredModules(of: target)
            let build = BuildConditions(
                toolchain: toolchain, flags: flags(for: target),
                importable: toolchain.modules.union(declared).union([target.name]))
            let sdk = target.type == "plugin" ? PlatformModules.pluginAPI : []
            var used: Set<String> = []
            for file in files {
                for reference in ImportScanner.references(in: file.text) {
                    used.insert(reference.module)
                    guard reference.form == .import, reference.module != target.name,
                        !declared.contains(reference.module),
                        !toolchain.modules.contains(reference.module),
                        !PlatformModules.otherPlatforms.contains(reference.module),
                        !sdk.contains(reference.module),
                        // Not compiled on this platform in a debug build: nothing to check here.
                        reference.condition?.evaluate(in: build) != false
                    else { continue }
                    let via =
                        transitivePath(from: target, to: reference.module, targets: targetsByName)
                        .map { " (it is reached only through \($0))" } ?? ""
                    found.append(
                        Diagnostic(
                            file: file.path, line: reference.line, severity: .error, rule: "implicit-import",
                            message:
                                "'\(target.name)' imports '\(reference.module)', which is not one of its declared dependencies\(via)"
                        ))
                }
            }
            guard !Self.importsNothingByDesign(target) else { continue }
            for dependency in target.dependencies {
                let modules = self.modules(of: dependency)
                guard modules.allSatisfy({ !used.contains($0) }),
                    !isBuiltRatherThanImported(dependency, targets: targetsByName)
                else { continue }
                found.append(
                    Diagnostic(
                        file: "Package.swift", line: manifestLine(of: target.name), severity: .warning,
                        rule: "redundant-dependency",
                        message: "'\(target.name)' declares '\(dependency.name)' but never imports it"))
            }
        }
        return found
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
        case .product(let package): productModules["\(package ?? "")/\(dependency.name)"] ?? [dependency.name]
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
