import ArgumentParser
import Foundation

/// `ribcage new`: scaffolds a feature RIB or a plain module, registered in Package.swift and
/// Project.swift.md, with a test target whose starter tests pass.
struct NewCommand: AsyncParsableCommand {
    /// The subcommand's name, help and kinds.
    package static let configuration = CommandConfiguration(
        commandName: "new", abstract: "Scaffold a feature RIB or a module.",
        subcommands: [RIB.self, PlainModule.self])

    /// Creates the command; ArgumentParser calls this.
    package init() {}

    /// `ribcage new rib NAME [--viewless] [--parent PARENT]`.
    struct RIB: AsyncParsableCommand {
        /// The kind's name and help.
        package static let configuration = CommandConfiguration(
            commandName: "rib", abstract: "A feature RIB under Modules/Features, with its test target.")

        /// The RIB's name.
        @Argument(help: "The RIB's name, UpperCamelCase, e.g. AddTodo.") package var name: String
        /// No view controller.
        @Flag(help: "Scaffold a RIB without a view.") package var viewless = false
        /// The parent feature.
        @Option(help: "The parent feature RIB, whose component will satisfy the new dependency.")
        var parent: String?
        /// The workspace.
        @Option(help: "The workspace folder (default: the current folder or the nearest one above it).")
        package var path: String?

        /// Creates the command; ArgumentParser calls this.
        package init() {}

        /// Runs the command.
        func run() async throws {
            try await NewCommand.reportingErrors {
                let root = try PackageLocator.root(fromPath: path)
                return try await Scaffolder(root: root).newRIB(
                    named: name, viewless: viewless, parent: parent)
            }
        }
    }

    /// `ribcage new module NAME --layer core|domain|data`.
    struct PlainModule: AsyncParsableCommand {
        /// The kind's name and help.
        package static let configuration = CommandConfiguration(
            commandName: "module", abstract: "A plain module under Modules, with its test target.")

        /// The module's name.
        @Argument(help: "The module's name, UpperCamelCase.") package var name: String
        /// Its layer.
        @Option(help: "core, domain or data.") package var layer: String
        /// The workspace.
        @Option(help: "The workspace folder (default: the current folder or the nearest one above it).")
        package var path: String?

        /// Creates the command; ArgumentParser calls this.
        package init() {}

        /// Runs the command.
        func run() async throws {
            try await NewCommand.reportingErrors {
                let root = try PackageLocator.root(fromPath: path)
                return try await Scaffolder(root: root).newModule(named: name, layer: layer)
            }
        }
    }

    static func reportingErrors(_ body: () async throws -> [String]) async throws {
        do {
            for file in try await body() { print("created \(file)") }
            print("registered in Package.swift and Project.swift.md")
        } catch let error as RibcageError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(error.exitCode)
        }
    }
}
