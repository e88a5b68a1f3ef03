import ArgumentParser

/// The `ribcage` command: a Tuist-like companion for any SwiftPM package, and the scaffolder of
/// workspaces laid out like Ribcage's.
public struct RibcageCommand: AsyncParsableCommand {
    /// The command's name, help and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "ribcage",
        abstract: "Build, test, lint, graph and scaffold a modular SwiftPM package.",
        discussion: """
            Exit codes:
              0   success
              1   tests failed, lint found an error, or `why` found no path
              2   the build failed (ribcage build: a module failed), or Graphviz failed to render
              3   no Package.swift at the given path or above it
              4   the manifest could not be read (swift package describe failed)
              5   ribcage new: the name is taken (by the package, a dependency's product or an SDK module)
              6   ribcage new: Package.swift or Project.swift.md cannot be edited safely
              64  bad usage: an unknown option, module or argument, a name that cannot be a module's, \
            binary output to a terminal
              69  a required program is missing
              71  too few file descriptors are free (ulimit -n) to start a program
              73  the --output file cannot be written
              74  a source file cannot be read
              128+N  stopped by signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP), after stopping \
            every process it started; a second signal ends it at once (ribcage worker: 0)
            """,
        subcommands: [
            BuildCommand.self, TestCommand.self, GraphCommand.self, WhyCommand.self, LintCommand.self,
            NewCommand.self, FlakyCommand.self, WorkerCommand.self,
        ]
    )

    /// Creates the command; ArgumentParser calls this.
    public init() {}
}
