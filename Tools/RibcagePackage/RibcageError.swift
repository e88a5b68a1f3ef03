/// The errors the `ribcage` tool reports to a person, each with a message that says what to do.
package enum RibcageError: Error, Equatable, CustomStringConvertible {
    /// No `Package.swift` in the folder, or in any folder above it.
    case noPackage(path: String)
    /// `swift package describe` failed, usually because the manifest does not parse.
    case manifestUnreadable(path: String, details: String)
    /// A module name that the package does not have.
    case unknownModules([String], known: [String])
    /// A module that exists but has no test target.
    case moduleWithoutTests(String)
    /// A needed program is missing.
    case commandNotFound(String, hint: String?)
    /// Building the package or its tests failed.
    case buildFailed(details: String)
    /// Graphviz could not render the graph.
    case renderFailed(details: String)
    /// A Markdown file lacks the `ribcage graph` markers.
    case markdownMarkersMissing(String)
    /// A git command failed, e.g. for an unknown `--base`.
    case gitFailed(String)
    /// A scaffold's name is taken: by the workspace, a dependency's product or an SDK module.
    case scaffoldExists(String, takenBy: String)
    /// A scaffold's name cannot be a Swift module's name.
    case invalidName(String, reason: String)
    /// Scaffolding cannot go ahead safely; the reason says why.
    case scaffoldRefused(String)
    /// A source file cannot be read as UTF-8 text.
    case unreadableSource(String)
    /// The file given to `--output` cannot be written.
    case outputUnwritable(path: String, reason: String)
    /// Binary output (PNG) would go to a terminal.
    case binaryToTerminal(format: String)
    /// `--focus` names a module that the other filters remove.
    case focusFilteredOut([String], filter: String)
    /// A row of Project.swift.md's Quarantine table that cannot be applied.
    case badQuarantine(String)
    /// Too few file descriptors are free under `ulimit -n` to start a child process safely.
    case outOfFileDescriptors(command: String, limit: Int)

    /// The process exit code this error maps to; `ribcage help` documents the table.
    package var exitCode: Int32 {
        switch self {
        case .buildFailed, .renderFailed: 2
        case .noPackage: 3
        case .manifestUnreadable: 4
        case .scaffoldExists: 5
        case .scaffoldRefused: 6
        case .unknownModules, .moduleWithoutTests, .markdownMarkersMissing, .gitFailed, .invalidName,
            .binaryToTerminal, .focusFilteredOut, .badQuarantine:
            64
        case .commandNotFound: 69
        case .outOfFileDescriptors: 71
        case .outputUnwritable: 73
        case .unreadableSource: 74
        }
    }

    /// A message for a person, naming what went wrong and the way out.
    package var description: String {
        switch self {
        case .noPackage(let path):
            return "No Package.swift in \(path) or any folder above it. Pass --path to a SwiftPM package."
        case .manifestUnreadable(let path, let details):
            return "Could not read the package at \(path): `swift package describe` failed.\n\(details)"
        case .unknownModules(let names, let known):
            let list = known.isEmpty ? "(none)" : known.joined(separator: ", ")
            let quoted = names.map { "'\($0)'" }.joined(separator: ", ")
            let noun = names.count == 1 ? "module" : "modules"
            return "Unknown \(noun) \(quoted). Known modules: \(list)."
        case .moduleWithoutTests(let name):
            return "Module '\(name)' has no test target: no test target depends on it."
        case .commandNotFound(let command, let hint):
            return "`\(command)` was not found on PATH." + (hint.map { " \($0)" } ?? "")
        case .buildFailed(let details):
            return "The build failed.\n\(details)"
        case .renderFailed(let details):
            return "Graphviz could not render the graph.\n\(details)"
        case .scaffoldExists(let name, let takenBy):
            return "'\(name)' is already \(takenBy); choose another name."
        case .invalidName(let name, let reason):
            return "'\(name)' cannot name a module: \(reason)."
        case .scaffoldRefused(let reason):
            return "Cannot scaffold: \(reason)."
        case .gitFailed(let details):
            return "git failed: \(details.trimmingCharacters(in: .whitespacesAndNewlines))"
        case .markdownMarkersMissing(let file):
            return
                "\(file) has no graph block: add the lines `<!-- ribcage graph begin -->` and `<!-- ribcage graph end -->`."
        case .unreadableSource(let path):
            return "Cannot read \(path) as UTF-8 text."
        case .outputUnwritable(let path, let reason):
            return "Cannot write \(path): \(reason)."
        case .binaryToTerminal(let format):
            return
                "Refusing to write \(format) to a terminal; pass --output FILE or redirect standard output."
        case .focusFilteredOut(let names, let filter):
            let quoted = names.map { "'\($0)'" }.joined(separator: ", ")
            return "--focus \(quoted) is removed by \(filter); drop one of the two."
        case .badQuarantine(let reason):
            return "Project.swift.md's Quarantine table: \(reason)."
        case .outOfFileDescriptors(let command, let limit):
            return
                "Too few file descriptors are free to start `\(command)` (the limit, `ulimit -n`, is \(limit)). Raise it, e.g. `ulimit -n 4096`, and run again."
        }
    }
}
