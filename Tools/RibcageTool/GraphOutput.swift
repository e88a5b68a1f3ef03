import ArgumentParser
import Foundation
import RibcageGraph
import RibcagePackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Renders a graph in the chosen format and writes it where asked: shared by `graph` and `why`.
enum GraphOutput {
    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable, Sendable {
        case dot, json, mermaid, svg, png

        /// Graphviz's output, which is no reading for a terminal.
        var isRendered: Bool { self == .svg || self == .png }
    }

    /// Graphviz layout engines.
    enum Algorithm: String, ExpressibleByArgument, CaseIterable, Sendable {
        case dot, neato, fdp, sfdp, circo, twopi
    }

    /// `graph` in `format`.
    static func render(
        _ graph: DependencyGraph, as format: Format, name: String, filters: GraphFilters, algorithm: Algorithm
    ) async throws -> Data {
        switch format {
        case .dot: return Data(graph.dot(name: name).utf8)
        case .mermaid: return Data(graph.mermaid().utf8)
        case .json: return Data(try graph.json(package: name, filters: filters).utf8)
        case .svg, .png: return try await graphviz(graph.dot(name: name), as: format, algorithm: algorithm)
        }
    }

    /// Refuses SVG and PNG for a terminal before any work is done: they are for a file or a pipe.
    ///
    /// - Throws: ``RibcageError/binaryToTerminal(format:)``.
    static func checkDestination(_ format: Format, output: String?) throws {
        if format.isRendered, output == nil, isatty(STDOUT_FILENO) == 1 {
            throw RibcageError.binaryToTerminal(format: format.rawValue.uppercased())
        }
    }

    /// Writes `data` to the file `output`, or to standard output.
    ///
    /// - Throws: ``RibcageError/outputUnwritable(path:reason:)`` naming the system's reason
    ///   (no such folder, permission denied, a folder in the way).
    static func write(_ data: Data, to output: String?) throws {
        guard let output else {
            FileHandle.standardOutput.write(data)
            return
        }
        try OutputFile.write(data, to: output)
    }

    /// Renders DOT text with Graphviz.
    static func graphviz(_ dot: String, as format: Format, algorithm: Algorithm) async throws -> Data {
        guard Shell.isOnPath("dot") else {
            throw RibcageError.commandNotFound("dot", hint: "Install Graphviz: `apt-get install graphviz`.")
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcage-graph-\(UUID().uuidString).dot")
        try Data(dot.utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let result = try await Shell.run(
            "dot", ["-K\(algorithm.rawValue)", "-T\(format.rawValue)", input.path])
        guard result.succeeded else { throw RibcageError.renderFailed(details: result.errorText) }
        return result.standardOutput
    }
}
