import RibcageGraph
import RibcagePackage

/// What `ribcage build` builds, one step at a time: the chosen modules and every target they
/// need, dependencies before dependents, so that when a step starts everything it imports is
/// already built and the step's time is the module's own.
package struct BuildPlan: Sendable, Equatable {
    /// One `swift build` invocation.
    package struct Step: Sendable, Equatable, Hashable {
        /// What the step builds.
        package enum Kind: String, Sendable, Codable {
            /// A target of the package (`swift build --target`).
            case target
            /// A module of another package's product, also built with `swift build --target`:
            /// SwiftPM builds a dependency's target by name, while `--product` of an automatic
            /// library product builds the whole package instead.
            case externalProduct = "external-product"
        }

        /// The target's or product's name.
        package var name: String
        /// A target or another package's product.
        package var kind: Kind
        /// The steps of this plan it depends on directly: targets and external products.
        package var dependencies: [String]
    }

    /// The steps, every dependency before its dependents; external products first.
    package var steps: [Step]

    /// The target kinds that compile to a module; system libraries, binaries and plugins do not.
    package static let compiledKinds: Set<String> = ["library", "executable", "macro", "test"]

    /// Plans the build of `modules` (by target name), or of every non-test compiled target when
    /// `modules` is empty.
    ///
    /// - Parameter productModules: The modules of each external product, when they are not just
    ///   the module of the product's name (swift-collections' `Collections`).
    /// - Throws: ``RibcageError/unknownModules(_:known:)`` for a name that is no compiled target.
    package init(package: DescribedPackage, modules: [String], productModules: [String: [String]] = [:])
        throws
    {
        let compiled = package.targets.filter { Self.compiledKinds.contains($0.type) }
        let byName = Dictionary(compiled.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let unknown = modules.filter { byName[$0] == nil }
        guard unknown.isEmpty else {
            throw RibcageError.unknownModules(unknown, known: compiled.map(\.name).sorted())
        }
        self.init(
            package: package, roots: modules.isEmpty ? compiled.filter { !$0.isTest }.map(\.name) : modules,
            productModules: productModules)
    }

    /// Plans the build of `roots`, which are all compiled targets of `package`.
    private init(package: DescribedPackage, roots: [String], productModules: [String: [String]] = [:]) {
        let byName = Dictionary(
            package.targets.filter { Self.compiledKinds.contains($0.type) }.map { ($0.name, $0) },
            uniquingKeysWith: { first, _ in first })
        // Depth-first from each root, by name: a post-order visit puts every
        // dependency before its dependents. The manifest forbids cycles, so this terminates.
        var ordered: [Step] = []
        var products: [String] = []
        var visited: Set<String> = []
        func visit(_ name: String) {
            guard !visited.contains(name), let target = byName[name] else { return }
            visited.insert(name)
            let targetDependencies = target.targetDependencies.filter { byName[$0] != nil }
            for dependency in targetDependencies { visit(dependency) }
            let productTargets = target.productDependencies.flatMap { productModules[$0] ?? [$0] }
            for module in productTargets where !products.contains(module) {
                products.append(module)
            }
            ordered.append(Step(name: name, kind: .target, dependencies: targetDependencies + productTargets))
        }
        // By name, so that the order does not depend on how SwiftPM happens to list targets.
        for root in roots.sorted() { visit(root) }
        steps = products.map { Step(name: $0, kind: .externalProduct, dependencies: []) } + ordered
    }

    /// The steps that depend on `name`, directly or through other steps.
    package func dependents(of name: String) -> [String] {
        var reached: Set<String> = [name]
        var result: [String] = []
        // Steps are in dependency order, so one pass finds every transitive dependent.
        for step in steps where step.dependencies.contains(where: reached.contains) {
            reached.insert(step.name)
            result.append(step.name)
        }
        return result
    }
}

extension BuildPlan {
    /// The compiled targets that files changed since a revision affect: the targets owning a
    /// changed file and, transitively, every target that depends on one. A change to what every
    /// target builds from (`Package.swift`, `Package.resolved`…) affects all of them.
    ///
    /// - Returns: The affected non-test targets, each with why, in the package's order.
    package static func affectedModules(package: DescribedPackage, changedFiles: [String])
        -> [(module: String, reason: String)]
    {
        let compiled = package.targets.filter { Self.compiledKinds.contains($0.type) && !$0.isTest }
        if let everything = changedFiles.first(where: Self.isBuildInput) {
            return compiled.map { ($0.name, "\(everything) changed: everything is affected") }
        }
        let reasons = ChangeImpact.affectedTargets(package: package, changedFiles: changedFiles)
        return compiled.compactMap { target in reasons[target.name].map { (target.name, $0) } }
    }

    /// True for the files every target builds from: those that affect every test, except
    /// Project.swift.md, which no compiler reads.
    static func isBuildInput(_ file: String) -> Bool {
        ChangeImpact.affectsEverything(file) && file != "Project.swift.md"
    }
}
