import ArgumentParser
import Foundation
import RibcagePackage
import RibcageScaffold

/// `ribcage new`: scaffolds a feature RIB or a plain module, registered in Package.swift and
/// Project.swift.md, with a test target whose starter tests pass.
struct NewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Scaffold a feature RIB or a module in a workspace laid out like Ribcage's.",
        discussion: """
            The workspace's Package.swift lists its modules in a `let modules: [Module] = [ … ]` \
            table of `.module`, `.feature`, `.app` and `.tool` rows, and Project.swift.md describes \
            the same table; both are edited. Package.swift is edited through a real parse, so any \
            layout works, and is formatted afterwards if it was formatted before.

            Refuses a name that cannot name a module (exit 64) or that is taken by the workspace, a \
            dependency's product or an SDK module such as Foundation (exit 5), and refuses to edit \
            manifests with uncommitted changes that ribcage did not make itself (exit 6) unless \
            --allow-dirty is given: several scaffolds in a row need no commit in between.
            """,
        subcommands: [RIB.self, PlainModule.self])

    /// `ribcage new rib NAME [--viewless] [--parent PARENT]`.
    struct RIB: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rib", abstract: "A feature RIB under Modules/Features, with its test target.")

        @Argument(help: "The RIB's name, UpperCamelCase, e.g. Settings.")
        var name: String

        @Flag(help: "Scaffold a RIB without a view.")
        var viewless = false

        @Option(
            help: "The parent feature RIB, whose component will satisfy the new RIB's dependency.",
            completion: .custom(Completions.features))
        var parent: String?

        @Flag(help: "Edit Package.swift and Project.swift.md even with uncommitted changes of your own.")
        var allowDirty = false

        @OptionGroup var package: PackageOptions

        func run() async throws {
            try await NewCommand.reportingCreated {
                try await Scaffolder(
                    root: try package.root(), allowDirty: allowDirty, note: StandardError.writeLine
                )
                .newRIB(named: name, viewless: viewless, parent: parent)
            }
        }
    }

    /// `ribcage new module NAME --layer core|domain|data`.
    struct PlainModule: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "module", abstract: "A plain module under Modules, with its test target.")

        @Argument(help: "The module's name, UpperCamelCase.")
        var name: String

        @Option(help: "The module's layer.")
        var layer: Scaffolder.Layer

        @Flag(help: "Edit Package.swift and Project.swift.md even with uncommitted changes of your own.")
        var allowDirty = false

        @OptionGroup var package: PackageOptions

        func run() async throws {
            try await NewCommand.reportingCreated {
                try await Scaffolder(
                    root: try package.root(), allowDirty: allowDirty, note: StandardError.writeLine
                )
                .newModule(named: name, layer: layer)
            }
        }
    }

    static func reportingCreated(_ body: () async throws -> [String]) async throws {
        try await RibcageError.reported {
            for file in try await body() { print("created \(file)") }
            print("registered in Package.swift and Project.swift.md")
        }
    }
}

extension Scaffolder.Layer: ExpressibleByArgument {}
