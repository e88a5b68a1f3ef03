import Foundation

/// Writes new modules into a workspace laid out like Ribcage's: a `modules` table in
/// Package.swift and a Modules table in Project.swift.md.
package struct Scaffolder: Sendable {
    /// The workspace root.
    package var root: URL

    /// Creates a scaffolder for the workspace at `root`.
    package init(root: URL) {
        self.root = root
    }

    /// Scaffolds a feature RIB `name` under `Modules/Features/<name>`, with its test target.
    ///
    /// With `parent`, the parent feature gains a dependency on the new RIB and a
    /// `<Parent>Component+<Name>.swift` that makes its component satisfy `<Name>Dependency`, as
    /// Uber's Component Extension template does; the edge is recorded in Project.swift.md.
    ///
    /// - Returns: The files written, relative to the root.
    package func newRIB(named name: String, viewless: Bool, parent: String?) async throws -> [String] {
        try validate(name)
        var package = try await editablePackageManifest()
        var project = try String(contentsOf: root.appendingPathComponent("Project.swift.md"), encoding: .utf8)
        if let parent {
            guard package.contains(".feature(\"\(parent)\"") else {
                throw RibcageError.scaffoldRefused("the parent '\(parent)' is not a feature in Package.swift")
            }
        }
        // A RIB with a view gets a HeadlessUI view controller where the workspace has the adapter.
        let headlessUI = !viewless && package.contains(".module(\"RIBsHeadlessUI\"")
        let dependencies = headlessUI ? ["RIBs", "Layout", "HeadlessUI", "RIBsHeadlessUI"] : ["RIBs"]
        let quoted = dependencies.map { "\"\($0)\"" }.joined(separator: ", ")
        package = try appendingModuleLine(
            "    .feature(\"\(name)\", dependencies: [\(quoted)], testDependencies: [\"RIBs\"]),", to: package
        )
        project = try appendingRow(
            "| \(name) | Modules/Features/\(name) | Features | library | \(dependencies.joined(separator: ", ")) "
                + "| \(name)Tests |",
            toTable: "Modules", in: project)

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
            package = try addingDependency(name, toFeature: parent, in: package)
            project = try addingDependency(name, toModuleRow: parent, in: project)
            project = try appendingRow("| \(parent) | \(name) |", toTable: "Feature edges", in: project)
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
        try await write(files, package: package, project: project)
        return files.map(\.0)
    }

    /// Scaffolds a plain module `name` in `layer` (core, domain or data) with its test target.
    package func newModule(named name: String, layer: String) async throws -> [String] {
        try validate(name)
        let layerName = layer.prefix(1).uppercased() + layer.dropFirst().lowercased()
        guard ["Core", "Domain", "Data"].contains(layerName) else {
            throw RibcageError.scaffoldRefused("--layer must be core, domain or data, not '\(layer)'")
        }
        var package = try await editablePackageManifest()
        var project = try String(contentsOf: root.appendingPathComponent("Project.swift.md"), encoding: .utf8)
        package = try appendingModuleLine(
            "    .module(\"\(name)\", layer: .\(layerName.lowercased())),", to: package)
        project = try appendingRow(
            "| \(name) | Modules/\(name) | \(layerName) | library | — | \(name)Tests |", toTable: "Modules",
            in: project)
        let files = [
            (
                "Modules/\(name)/\(name).swift",
                """
                /// The \(name) module.
                package enum \(name) {
                    /// The module's name, to prove the module links.
                    package static let name = "\(name)"
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
        try await write(files, package: package, project: project)
        return files.map(\.0)
    }

    // MARK: Editing

    private func validate(_ name: String) throws {
        guard let first = name.first, first.isUppercase, name.allSatisfy({ $0.isLetter || $0.isNumber }),
            name.allSatisfy(\.isASCII)
        else {
            throw RibcageError.scaffoldRefused(
                "'\(name)' is not an UpperCamelCase name of letters and digits")
        }
        let manifest =
            (try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
        let taken = ["Modules/\(name)", "Modules/Features/\(name)", "Tests/\(name)Tests"].contains {
            FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path)
        }
        if taken || manifest.contains("\"\(name)\"") {
            throw RibcageError.scaffoldExists(name, takenBy: "a module of this workspace")
        }
    }

    /// Package.swift's text, if it can be edited safely: no uncommitted changes (when in git),
    /// and exactly one `modules` table.
    private func editablePackageManifest() async throws -> String {
        let file = root.appendingPathComponent("Package.swift")
        let text = try String(contentsOf: file, encoding: .utf8)
        if Shell.isOnPath("git"),
            let inside = try? await Shell.run("git", ["rev-parse", "--is-inside-work-tree"], in: root),
            inside.succeeded,
            let status = try? await Shell.run(
                "git", ["status", "--porcelain", "--", "Package.swift", "Project.swift.md"], in: root),
            !status.outputText.isEmpty
        {
            throw RibcageError.scaffoldRefused(
                "Package.swift or Project.swift.md has uncommitted changes; commit or stash them first")
        }
        guard text.components(separatedBy: "let modules: [Module] = [").count == 2 else {
            throw RibcageError.scaffoldRefused(
                "Package.swift has no single `let modules: [Module] = [` table to add to")
        }
        return text
    }

    private func appendingModuleLine(_ line: String, to text: String) throws -> String {
        var lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("let modules: [Module] = [") }),
            let end = lines[start...].firstIndex(where: { $0 == "]" })
        else {
            throw RibcageError.scaffoldRefused("Package.swift's modules table does not end with a `]` line")
        }
        lines.insert(line, at: end)
        return lines.joined(separator: "\n")
    }

    private func addingDependency(_ name: String, toFeature parent: String, in text: String) throws -> String
    {
        var lines = text.components(separatedBy: "\n")
        guard let index = lines.firstIndex(where: { $0.contains(".feature(\"\(parent)\"") }),
            let open = lines[index].range(of: "dependencies: [")
        else {
            throw RibcageError.scaffoldRefused(
                "the line of '\(parent)' in Package.swift has no `dependencies: [` to add to")
        }
        lines[index].insert(contentsOf: "\"\(name)\", ", at: open.upperBound)
        return lines.joined(separator: "\n")
    }

    private func addingDependency(_ name: String, toModuleRow module: String, in text: String) throws
        -> String
    {
        var lines = text.components(separatedBy: "\n")
        guard
            let index = lines.firstIndex(where: {
                $0.hasPrefix("| \(module) ") || $0.hasPrefix("| \(module)|")
            })
        else {
            throw RibcageError.scaffoldRefused("Project.swift.md has no row for '\(module)'")
        }
        var cells = lines[index].components(separatedBy: "|")
        guard cells.count >= 7 else {
            throw RibcageError.scaffoldRefused("the row of '\(module)' is not a Modules row")
        }
        let current = cells[5].trimmingCharacters(in: .whitespaces)
        cells[5] = " " + (current == "—" || current.isEmpty ? name : "\(current), \(name)") + " "
        lines[index] = cells.joined(separator: "|")
        return lines.joined(separator: "\n")
    }

    private func appendingRow(_ row: String, toTable table: String, in text: String) throws -> String {
        var lines = text.components(separatedBy: "\n")
        guard
            let heading = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "## \(table)" }
            )
        else {
            throw RibcageError.scaffoldRefused("Project.swift.md has no `## \(table)` section")
        }
        var last: Int?
        var index = heading + 1
        while index < lines.count, !lines[index].hasPrefix("## ") {
            if lines[index].hasPrefix("|") { last = index }
            index += 1
        }
        guard let last else {
            throw RibcageError.scaffoldRefused("the \(table) section of Project.swift.md has no table")
        }
        lines.insert(row, at: last + 1)
        return lines.joined(separator: "\n")
    }

    private func write(_ files: [(String, String)], package: String, project: String) async throws {
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try Data(package.utf8).write(to: root.appendingPathComponent("Package.swift"))
        try Data(project.utf8).write(to: root.appendingPathComponent("Project.swift.md"))
        // Lay the new files out the way the workspace's .swift-format wants them.
        _ = try? await Shell.run("swift", ["format", "format", "--in-place"] + files.map(\.0), in: root)
    }
}
