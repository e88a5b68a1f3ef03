import ArgumentParser
import Foundation
import RibcageGraph
import RibcagePackage

/// `ribcage why A B`: every dependency path from A to B.
struct WhyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "why",
        abstract: "Show every dependency path from one module to another (why A depends on B).",
        discussion: """
            Lists each path, shortest first, as `A → X → B`, through targets and other packages' \
            products; with --format it draws the graph of those paths instead. Exits 1 when A does \
            not depend on B, directly or through anything.
            """
    )

    @Argument(help: "The dependent: a target.", completion: .custom(Completions.modules))
    var from: String

    @Argument(
        help: "The dependency: a target or another package's product.",
        completion: .custom(Completions.modules))
    var to: String

    @OptionGroup var package: PackageOptions

    @Option(help: "Draw the paths as a graph in this format instead of listing them.")
    var format: GraphOutput.Format?

    @Option(help: "Write to this file instead of standard output.", completion: .file())
    var output: String?

    @Option(help: "List or draw at most this many paths.")
    var limit = 1_000

    @Option(help: "Graphviz layout for svg and png: dot, neato, fdp, sfdp, circo or twopi.")
    var algorithm: GraphOutput.Algorithm = .dot

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
    }

    func run() async throws {
        var found = true
        try await RibcageError.reported {
            if let format { try GraphOutput.checkDestination(format, output: output) }
            let root = try package.root()
            let described = try await PackageLoader.load(packageAt: root, note: StandardError.writeLine)
            let layers = try ProjectManifest.load(packageAt: root)?.layers ?? [:]
            let graph = DependencyGraph(package: described, layers: layers)
            let paths = try DependencyPaths(from: from, to: to, in: graph, limit: limit)
            found = !paths.paths.isEmpty
            if let format {
                let data = try await GraphOutput.render(
                    paths.graph(within: graph), as: format, name: "\(from) → \(to)",
                    filters: GraphFilters(focus: [from, to]), algorithm: algorithm)
                try GraphOutput.write(data, to: output)
            } else {
                try GraphOutput.write(Data(Self.listing(paths, from: from, to: to).utf8), to: output)
            }
        }
        if !found { throw ExitCode(1) }
    }

    static func listing(_ paths: DependencyPaths, from: String, to: String) -> String {
        guard !paths.paths.isEmpty else { return "\(from) does not depend on \(to).\n" }
        let count = paths.paths.count
        var text =
            "\(from) depends on \(to) through \(count)\(paths.truncated ? "+" : "") path\(count == 1 ? "" : "s"):\n"
        for path in paths.paths { text += "  " + path.joined(separator: " → ") + "\n" }
        if paths.truncated { text += "  … and more; raise --limit to see them\n" }
        return text
    }
}
