import ArgumentParser

/// The `ribcage` command: the workspace's Tuist-like companion.
public struct RibcageCommand: ParsableCommand {
    /// The command's name, help and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "ribcage",
        abstract:
            "Work with a modular SwiftPM workspace: run its module test suites, draw its dependency graph.",
        discussion: """
            Exit codes:
              0   success
              1   tests failed, or lint found an error
              2   the build failed (or Graphviz failed to render)
              3   no Package.swift at the given path or above it
              4   the manifest could not be read (swift package describe failed)
              5   ribcage new: the name already exists
              6   ribcage new: Package.swift or Project.swift.md cannot be edited safely
                  (uncommitted changes, or no modules table)
              64  bad usage: an unknown option, module (including --focus) or argument
              69  a required program is missing
            """,
        subcommands: [TestCommand.self, GraphCommand.self, LintCommand.self, NewCommand.self]
    )

    /// Creates the command; ArgumentParser calls this.
    public init() {}
}
