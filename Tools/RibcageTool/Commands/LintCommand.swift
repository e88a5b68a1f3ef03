import ArgumentParser
import Foundation

/// `ribcage lint`: checks the package against Project.swift.md and its own imports.
public struct LintCommand: ParsableCommand {
    /// The subcommand's name and help.
    public static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract:
            "Check manifest agreement, layer rules, cycles, implicit imports and redundant dependencies.",
        discussion: """
            Prints diagnostics compiler-style (path:line: error: message [rule]) so editors pick
            them up, or as JSON. Exits 1 when there is an error; warnings (redundant dependencies)
            do not fail.
            """
    )

    /// Output formats.
    public enum Format: String, ExpressibleByArgument, Sendable {
        case text, json
    }

    /// The package to check.
    @Option(help: "The package folder (default: the current folder or the nearest one above it).")
    public var path: String?

    /// How to print.
    @Option(help: "text or json.")
    public var format: Format = .text

    /// Creates the command; ArgumentParser calls this.
    public init() {}

    /// Runs the command.
    public func run() throws {
        let diagnostics: [Diagnostic]
        do {
            let root = try PackageLocator.root(fromPath: path)
            let package = try DescribedPackage.load(packageAt: root)
            let linter = Linter(
                package: package, manifest: try ProjectManifest.load(packageAt: root),
                sources: Linter.readSources(of: package, root: root))
            diagnostics = linter.diagnostics()
        } catch let error as RibcageError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(error.exitCode)
        }
        switch format {
        case .text:
            for diagnostic in diagnostics { print(diagnostic) }
            let errors = diagnostics.filter { $0.severity == .error }.count
            print(
                "\(errors) error\(errors == 1 ? "" : "s"), \(diagnostics.count - errors) warning\(diagnostics.count - errors == 1 ? "" : "s")"
            )
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(diagnostics), as: UTF8.self))
        }
        if diagnostics.contains(where: { $0.severity == .error }) { throw ExitCode(1) }
    }
}
