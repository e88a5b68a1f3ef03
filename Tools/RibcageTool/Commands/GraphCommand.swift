import ArgumentParser
import Foundation

/// `ribcage graph`: the package's dependency graph as DOT, JSON, Mermaid, SVG or PNG.
struct GraphCommand: AsyncParsableCommand {
    /// The subcommand's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Print the dependency graph of the package (targets and external products).",
        discussion: """
            Reads the package with `swift package describe --type json` and clusters targets by the
            layers of Project.swift.md when the package has one. SVG and PNG are rendered by
            Graphviz's `dot`. The JSON (schemaVersion 1) holds exactly the filtered graph.
            """
    )

    /// Output formats.
    package enum Format: String, ExpressibleByArgument, CaseIterable, Sendable {
        case dot, json, mermaid, svg, png
    }

    /// Graphviz layout engines.
    package enum Algorithm: String, ExpressibleByArgument, CaseIterable, Sendable {
        case dot, neato, fdp, sfdp, circo, twopi
    }

    /// The package to read.
    @Option(help: "The package folder (default: the current folder or the nearest one above it).")
    package var path: String?

    /// The output format.
    @Option(help: "dot, json, mermaid, svg or png.")
    package var format: Format = .dot

    /// Where to write.
    @Option(help: "Write to this file instead of standard output.")
    package var output: String?

    /// Leave out test targets.
    @Flag(help: "Leave out test targets.")
    package var skipTests = false

    /// Leave out external products.
    @Flag(help: "Leave out products of other packages.")
    package var skipExternal = false

    /// Focus on modules.
    @Option(help: "Keep only this module, what it depends on and what depends on it (repeatable).")
    package var focus: [String] = []

    /// Only direct neighbours of the focus.
    @Flag(help: "With --focus, keep only direct dependencies and dependents.")
    package var direct = false

    /// A Markdown file whose graph block to rewrite.
    @Option(
        help: ArgumentHelp(
            "Rewrite the Mermaid block between the graph markers in this Markdown file (e.g. README.md).",
            discussion: "The markers are `<!-- ribcage graph begin -->` and `<!-- ribcage graph end -->`."))
    package var updateMarkdown: String?

    /// The Graphviz layout engine for svg and png.
    @Option(help: "Graphviz layout for svg/png: dot, neato, fdp, sfdp, circo or twopi.")
    package var algorithm: Algorithm = .dot

    /// Creates the command; ArgumentParser calls this.
    package init() {}

    /// Runs the command.
    func run() async throws {
        do {
            let root = try PackageLocator.root(fromPath: path)
            let package = try await PackageLoader.load(packageAt: root)
            let layers = try ProjectManifest.load(packageAt: root)?.layers ?? [:]
            let filters = GraphFilters(
                skipTests: skipTests, skipExternal: skipExternal, focus: focus, direct: direct)
            let graph = try DependencyGraph(package: package, layers: layers)
                .filtered(skipTests: skipTests, skipExternal: skipExternal, focus: focus, direct: direct)
            if let updateMarkdown {
                let file = URL(fileURLWithPath: updateMarkdown)
                let text = try String(contentsOf: file, encoding: .utf8)
                let updated = try MarkdownGraphBlock.replacing(
                    in: text, with: graph.mermaid(), file: updateMarkdown)
                if updated != text { try Data(updated.utf8).write(to: file) }
                return
            }
            let data: Data
            switch format {
            case .dot: data = Data(graph.dot(name: package.name).utf8)
            case .mermaid: data = Data(graph.mermaid().utf8)
            case .json: data = Data(try graph.json(package: package.name, filters: filters).utf8)
            case .svg, .png:
                data = try await Self.render(graph.dot(name: package.name), as: format, algorithm: algorithm)
            }
            if let output {
                try data.write(to: URL(fileURLWithPath: output))
            } else {
                FileHandle.standardOutput.write(data)
            }
        } catch let error as RibcageError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(error.exitCode)
        }
    }

    /// Renders DOT text with Graphviz.
    static func render(_ dot: String, as format: Format, algorithm: Algorithm) async throws -> Data {
        guard Shell.isOnPath("dot") else {
            throw RibcageError.commandNotFound("dot", hint: "Install Graphviz: `apt-get install graphviz`.")
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcage-graph-\(UUID().uuidString).dot")
        try Data(dot.utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let result = try await Shell.run(
            "dot", ["-K\(algorithm.rawValue)", "-T\(format.rawValue)", input.path])
        guard result.succeeded else {
            throw RibcageError.renderFailed(details: result.errorText)
        }
        return result.standardOutput
    }
}
