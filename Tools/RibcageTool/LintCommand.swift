import ArgumentParser
import Foundation
import RibcageLint
import RibcagePackage

/// `ribcage lint`: checks the package against Project.swift.md and its own imports.
struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check that imports match declared dependencies, and the package against Project.swift.md.",
        discussion: """
            On any package: every imported module must be a declared dependency of the target \
            (implicit-import, an error), and every declared dependency must be imported \
            (redundant-dependency, a warning). Imports are judged for a debug build on this \
            machine: an import under an #if that is false here is not compiled, so it is not \
            checked, and modules of any platform's SDK never need declaring.

            With a Project.swift.md (the table format this workspace documents), also: the \
            Modules table agrees with Package.swift (manifest), dependencies follow the Layers \
            table (layers), and there are no cycles (cycle).

            Prints findings compiler-style (path:line: error: message [rule]) so editors pick \
            them up, or as JSON. Exits 1 when there is an error; warnings do not fail.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var package: PackageOptions

    @Option(help: "text or json.")
    var format: Format = .text

    func run() async throws {
        var diagnostics: [Diagnostic] = []
        try await RibcageError.reported {
            let root = try package.root()
            // The toolchain's folder is read while SwiftPM describes the package: neither needs
            // the other.
            async let toolchain = Toolchain.currentOffThePool()
            let loaded = try await PackageLoader.load(packageAt: root, note: StandardError.writeLine)
            let manifest = try ProjectManifest.load(packageAt: root)
            if manifest == nil {
                StandardError.write(
                    "note: no Project.swift.md here, so the manifest and layer checks are off; imports and cycles are checked.\n"
                )
            }
            var linter = Linter(
                package: loaded, manifest: manifest,
                sources: try await Linter.readSourcesOffThePool(of: loaded, root: root),
                toolchain: try await toolchain,
                manifestText: (try? String(
                    contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8))
                    ?? "")
            // Products whose names are not their modules' (`Collections` holds `DequeModule`) can
            // only be told apart by their package's manifest; read those only when they matter.
            let packages = linter.packagesWhoseProductsMatter()
            if packages?.isEmpty != true {
                if DependencyProducts.checkouts(root: root).isEmpty {
                    StandardError.write(
                        "note: the dependencies are not checked out (`swift package resolve`), so each product is taken to hold the module of its own name.\n"
                    )
                }
                linter.productModules = try await DependencyProducts.modules(root: root, identities: packages)
            }
            diagnostics = linter.diagnostics()
        }
        switch format {
        case .text:
            for diagnostic in diagnostics { print(diagnostic) }
            let errors = diagnostics.filter { $0.severity == .error }.count
            let warnings = diagnostics.count - errors
            print("\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(diagnostics), as: UTF8.self))
        }
        if diagnostics.contains(where: { $0.severity == .error }) { throw ExitCode(1) }
    }
}
