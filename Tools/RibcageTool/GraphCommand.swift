import ArgumentParser
import Foundation
import RibcageGraph
import RibcagePackage

/// `ribcage graph`: the package's dependency graph as DOT, JSON, Mermaid, SVG or PNG.
struct GraphCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract:
            "Print the dependency graph of the package: its targets, other packages' products and, with --packages, those packages.",
        discussion: """
            Reads the package with SwiftPM and, when it has a Project.swift.md, groups targets by \
            its layers; without one nothing is grouped. Shapes tell libraries, executables, tests, \
            macros, plugins, C targets, system libraries and other packages' products apart; \
            dashed edges lead to products, dotted labelled ones are dependencies declared with \
            .when(platforms:) or .when(traits:); the DOT legend lists them.

            --packages draws each other package as a cluster labelled with its resolved version, \
            holding the products the package uses, with thick edges to the packages it depends \
            on, transitively. The tree is read from the checkouts SwiftPM left in .build and \
            their manifests (cached per revision); only when a dependency is not checked out \
            does it come from `swift package show-dependencies`, which resolves, and a note says so.

            Several --focus keep the union of what each keeps. SVG and PNG are rendered by \
            Graphviz and go to --output or a pipe, never to a terminal. The JSON (schemaVersion 2) \
            holds exactly the filtered graph.
            """
    )

    @OptionGroup var package: PackageOptions

    @Option(help: "The output format.")
    var format: GraphOutput.Format = .dot

    @Option(help: "Write to this file instead of standard output.", completion: .file())
    var output: String?

    @Flag(help: "Leave out test targets.")
    var skipTests = false

    @Flag(help: "Leave out products of other packages, and the packages.")
    var skipExternal = false

    @Flag(
        help: "Draw the other packages too: each with its version, the products used, and what it depends on."
    )
    var packages = false

    @Option(
        help: "Keep only this module, what it depends on and what depends on it; repeat for several.",
        completion: .custom(Completions.modules))
    var focus: [String] = []

    @Flag(help: "With --focus, keep only direct dependencies and dependents.")
    var direct = false

    @Option(
        help: ArgumentHelp(
            "Rewrite the Mermaid block between the graph markers in this Markdown file (e.g. README.md).",
            discussion: "The markers are `<!-- ribcage graph begin -->` and `<!-- ribcage graph end -->`."),
        completion: .file(extensions: ["md"]))
    var updateMarkdown: String?

    @Option(help: "Graphviz layout for svg and png: dot, neato, fdp, sfdp, circo or twopi.")
    var algorithm: GraphOutput.Algorithm = .dot

    func run() async throws {
        try await RibcageError.reported {
            if updateMarkdown == nil { try GraphOutput.checkDestination(format, output: output) }
            let root = try package.root()
            let described = try await PackageLoader.load(packageAt: root, note: StandardError.writeLine)
            let layers = try ProjectManifest.load(packageAt: root)?.layers ?? [:]
            let dependencies =
                packages
                ? try await PackageDependencies.load(
                    root: root, package: described, note: StandardError.writeLine) : nil
            let filters = GraphFilters(
                skipTests: skipTests, skipExternal: skipExternal, focus: focus, direct: direct)
            let graph = try DependencyGraph(package: described, layers: layers, packages: dependencies)
                .filtered(filters)
            if let updateMarkdown {
                try MarkdownGraphBlock.update(file: updateMarkdown, with: graph.mermaid())
                return
            }
            let data = try await GraphOutput.render(
                graph, as: format, name: described.name, filters: filters, algorithm: algorithm)
            try GraphOutput.write(data, to: output)
        }
    }
}
