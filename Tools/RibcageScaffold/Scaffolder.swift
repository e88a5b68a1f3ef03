import BlockingWork
import Foundation
import RibcageLint
import RibcagePackage

/// Writes new modules into a workspace laid out like Ribcage's: a `modules` table in
/// Package.swift (edited through a real parse, see ``ModulesTable``) and a Modules table in
/// Project.swift.md.
package struct Scaffolder: Sendable {
    /// The layers a plain module may live in.
    package enum Layer: String, CaseIterable, Sendable {
        case core, domain, data

        /// The layer's name in Project.swift.md.
        var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
    }

    /// The workspace root.
    package var root: URL
    /// Edit even when the manifests have uncommitted changes the tool did not make.
    package var allowDirty: Bool
    /// Told what the user should know on the way (the package read from its manifest alone).
    package var note: @Sendable (String) -> Void

    /// Creates a scaffolder for the workspace at `root`.
    package init(root: URL, allowDirty: Bool = false, note: @escaping @Sendable (String) -> Void) {
        self.root = root
        self.allowDirty = allowDirty
        self.note = note
    }

    /// Scaffolds a feature RIB `name` under `Modules/Features/<name>`, with its test target.
    ///
    /// With `parent`, the parent feature gains a dependency on the new RIB and a
    /// `<Parent>Component+<Name>.swift` that makes its component satisfy `<Name>Dependency`, as
    /// Uber's Component Extension template does; the edge is recorded in Project.swift.md.
    ///
    /// - Returns: The files written, relative to the root.
    package func newRIB(named name: String, viewless: Bool, parent: String?) async throws -> [String] {
        var (table, project) = try await prepare(name)
        if let parent {
            guard table.row(named: parent)?.kind == "feature" else {
                let features = table.rows.filter { $0.kind == "feature" }.map(\.name)
                throw RibcageError.scaffoldRefused(
                    "the parent '\(parent)' is not a feature in Package.swift (features: "
                        + (features.isEmpty ? "none" : features.joined(separator: ", ")) + ")")
            }
        }
        // A RIB with a view gets a HeadlessUI view controller where the workspace has the adapter.
        let headlessUI = !viewless && table.row(named: "RIBsHeadlessUI") != nil
        let dependencies =
            headlessUI ? ["RIBs", "Layout", "LayoutDSL", "HeadlessUI", "RIBsHeadlessUI"] : ["RIBs"]
        let quoted = dependencies.map { "\"\($0)\"" }.joined(separator: ", ")
        try table.append(
            row: ".feature(\"\(name)\", dependencies: [\(quoted)], testDependencies: [\"RIBs\"])",
            kind: "feature")
        project = try ProjectTables.appendingRow(
            "| \(name) | Modules/Features/\(name) | Features | library | \(dependencies.joined(separator: ", ")) "
                + "| \(name)Tests |",
            toTable: "Modules", afterRowsWhere: { $0.contains("| Features |") }, in: project)

        let folder = "Modules/Features/\(name)"
        var files: [(String, String)] = [
            ("\(folder)/\(name)Builder.swift", RIBTemplates.builder(name, viewless: viewless)),
            ("\(folder)/\(name)Interactor.swift", RIBTemplates.interactor(name, viewless: viewless)),
            ("\(folder)/\(name)Router.swift", RIBTemplates.router(name, viewless: viewless)),
            (
                "Tests/\(name)Tests/\(name)Tests.swift",
                RIBTemplates.tests(name, viewless: viewless, headlessUI: headlessUI)
            ),
        ]
        if !viewless {
            files.append(
                (
                    "\(folder)/\(name)ViewController.swift",
                    RIBTemplates.viewController(name, headlessUI: headlessUI)
                ))
        }
        if let parent {
            try table.addDependency("\"\(name)\"", toRow: parent)
            project = try ProjectTables.addingDependency(name, toModuleRow: parent, in: project)
            project = try ProjectTables.appendingRow(
                "| \(parent) | \(name) |", toTable: "Feature edges", in: project)
            files.append(
                (
                    "Modules/Features/\(parent)/\(parent)Component+\(name).swift",
                    """
                    import \(name)

                    // The parent's component provides what \(name) needs (Uber's Component Extension).
                    extension \(parent)Component: \(name)Dependency {}

                    """
                ))
        }
        try await write(files, package: table.source, project: project)
        return files.map(\.0)
    }

    /// Scaffolds a plain module `name` in `layer`, with its test target.
    package func newModule(named name: String, layer: Layer) async throws -> [String] {
        var (table, project) = try await prepare(name)
        try table.append(
            row: ".module(\"\(name)\", layer: .\(layer.rawValue))", kind: "module", layer: layer.rawValue)
        project = try ProjectTables.appendingRow(
            "| \(name) | Modules/\(name) | \(layer.title) | library | — | \(name)Tests |", toTable: "Modules",
            afterRowsWhere: { $0.contains("| \(layer.title) ") }, in: project)
        let files = [
            (
                "Modules/\(name)/\(name).swift",
                """
                /// The \(name) module.
                public enum \(name) {
                    /// The module's name, to prove the module links.
                    public static let name = "\(name)"
                }

                """
            ),
            (
                "Tests/\(name)Tests/\(name)Tests.swift",
                """
                import Testing

                @testable import \(name)

                @Suite("\(name)")
                struct \(name)Tests {
                    @Test("the module links and names itself")
                    func links() {
                        #expect(\(name).name == "\(name)")
                    }
                }

                """
            ),
        ]
        try await write(files, package: table.source, project: project)
        return files.map(\.0)
    }

    // MARK: Steps

    /// Reads both manifests, refusing when they cannot be edited safely or `name` cannot be used.
    private func prepare(_ name: String) async throws -> (ModulesTable, project: String) {
        let table = try ModulesTable(source: try read("Package.swift"))
        let project = try read("Project.swift.md")
        let foreign = try await ManifestChanges(root: root).foreignChanges()
        if !foreign.isEmpty && !allowDirty {
            throw RibcageError.scaffoldRefused(
                "\(foreign.joined(separator: " and ")) \(foreign.count == 1 ? "has" : "have") uncommitted changes "
                    + "that ribcage did not make; commit or stash them, or pass --allow-dirty")
        }
        try ModuleName.validate(name, against: try await takenNames(table: table))
        let folders = ["Modules/\(name)", "Modules/Features/\(name)", "Tests/\(name)Tests"]
        if let existing = folders.first(where: {
            FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path)
        }) {
            throw RibcageError.scaffoldExists(name, takenBy: "a folder of this workspace (\(existing))")
        }
        return (table, project)
    }

    /// The names a new module must avoid: the workspace's targets and products, its
    /// dependencies' products and their modules, and the SDKs' modules.
    private func takenNames(table: ModulesTable) async throws -> ModuleName.TakenNames {
        // The toolchain's folder is read while SwiftPM describes the package.
        async let toolchain = Toolchain.currentOffThePool()
        let package = try await PackageLoader.load(packageAt: root, note: note)
        var workspace = Set(package.targets.map(\.name)).union(package.products.map(\.name))
        workspace.formUnion(table.rows.map(\.name))
        var dependencyProducts: [String: String] = [:]
        for target in package.targets {
            for dependency in target.dependencies where dependency.kind != .target {
                dependencyProducts[dependency.name] = dependency.package ?? "a dependency"
            }
        }
        for (key, modules) in try await DependencyProducts.modules(root: root, identities: nil) {
            let identity = String(key.prefix { $0 != "/" })
            dependencyProducts[String(key.dropFirst(identity.count + 1))] = identity
            for module in modules { dependencyProducts[module] = identity }
        }
        let sdk = try await toolchain.modules.union(PlatformModules.otherPlatforms).union(["Swift"])
        return ModuleName.TakenNames(workspace: workspace, dependencyProducts: dependencyProducts, sdk: sdk)
    }

    private func read(_ file: String) throws -> String {
        let url = root.appendingPathComponent(file)
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw RibcageError.scaffoldRefused("cannot read \(file) (\(error.localizedDescription))")
        }
    }

    private func write(_ files: [(String, String)], package: String, project: String) async throws {
        // Keep Package.swift as tidy as it was: format it after the edit only if it was formatted before.
        let formatted = await isFormatted("Package.swift")
        let root = self.root
        // Folders and files on a thread of their own, not on the cooperative pool.
        try await DedicatedThread.run(named: "ribcage-new-write") {
            for (path, text) in files {
                let url = root.appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
            try Data(package.utf8).write(to: root.appendingPathComponent("Package.swift"))
            try Data(project.utf8).write(to: root.appendingPathComponent("Project.swift.md"))
        }
        let toFormat = files.map(\.0) + (formatted ? ["Package.swift"] : [])
        if Shell.isOnPath("swift") {
            // Lay the new files out the way the workspace's .swift-format wants them; a formatter
            // that fails leaves them as written, which compiles all the same.
            _ = try? await Shell.run("swift", ["format", "format", "--in-place"] + toFormat, in: root)
        }
        try await DedicatedThread.run(named: "ribcage-new-ledger") {
            try ManifestChanges(root: root).record()
        }
    }

    private func isFormatted(_ file: String) async -> Bool {
        guard let lint = try? await Shell.run("swift", ["format", "lint", "--strict", file], in: root) else {
            return false
        }
        return lint.succeeded && lint.errorText.isEmpty
    }
}
