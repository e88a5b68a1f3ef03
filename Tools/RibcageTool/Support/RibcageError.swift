/// The errors the `ribcage` tool reports to a person, each with a message that says what to do.
public enum RibcageError: Error, Equatable, CustomStringConvertible {
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
    /// A Markdown file lacks the `ribcage graph` markers.
    case markdownMarkersMissing(String)
    /// A git command failed, e.g. for an unknown `--base`.
    case gitFailed(String)
    /// A scaffold's name is taken.
    case scaffoldExists(String)
    /// Scaffolding cannot go ahead safely; the reason says why.
    case scaffoldRefused(String)

    /// The process exit code this error maps to; `ribcage help` documents the table.
    public var exitCode: Int32 {
        switch self {
        case .noPackage: 3
        case .scaffoldExists: 5
        case .scaffoldRefused: 6
        case .manifestUnreadable: 4
        case .unknownModules, .moduleWithoutTests, .markdownMarkersMissing, .gitFailed: 64
        case .commandNotFound: 69
        case .buildFailed: 2
        }
    }

    /// A message for a person, naming what went wrong and the way out.
    public var description: String {
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
            return "Module '\(name)' has no test target (expected one named '\(name)Tests')."
        case .commandNotFound(let command, let hint):
            return "`\(command)` was not found on PATH." + (hint.map { " \($0)" } ?? "")
        case .buildFailed(let details):
            return "The build failed.\n\(details)"
        case .scaffoldExists(let name):
            return "'\(name)' already exists in this workspace; choose another name."
        case .scaffoldRefused(let reason):
            return "Cannot scaffold: \(reason)."
        case .gitFailed(let details):
            return "git failed: \(details.trimmingCharacters(in: .whitespacesAndNewlines))"
        case .markdownMarkersMissing(let file):
            return
                "\(file) has no graph block: add the lines `<!-- ribcage graph begin -->` and `<!-- ribcage graph end -->`."
        }
    }
}
