/// How one step of a ``BuildPlan`` went.
package struct ModuleBuildResult: Sendable, Equatable, Codable {
    /// What became of the module.
    package enum Status: String, Sendable, Codable {
        /// Something of its own was compiled.
        case built
        /// SwiftPM found nothing to do.
        case upToDate = "up-to-date"
        /// Its build failed.
        case failed
        /// Not attempted, because a module it needs failed.
        case blocked
    }

    /// The target's or product's name.
    package var name: String
    /// A target or an external product.
    package var kind: BuildPlan.Step.Kind
    /// What became of it.
    package var status: Status
    /// The module's own build time: its step's build as SwiftPM times it (`Build of target: 'X'
    /// complete! (2.31s)`), which starts with its dependencies built and leaves out SwiftPM's
    /// start-up; the wall time when SwiftPM printed none.
    package var seconds: Double
    /// The step's wall time, SwiftPM's start-up included.
    package var wallSeconds: Double? = nil
    /// The compiler's first errors, for a failed module.
    package var errors: [CompilerDiagnostic] = []
    /// For a failed module whose log holds no compiler error, the log's last lines.
    package var logTail: String? = nil
    /// For a blocked module, the failed module it needs.
    package var blockedBy: String? = nil
    /// For a failed module, the modules of the plan it blocked.
    package var blocks: [String] = []

    /// A result; only a failed module has errors or blocks, only a blocked one a `blockedBy`.
    package init(
        name: String, kind: BuildPlan.Step.Kind, status: Status, seconds: Double,
        errors: [CompilerDiagnostic] = [],
        logTail: String? = nil, blockedBy: String? = nil, blocks: [String] = [], wallSeconds: Double? = nil
    ) {
        self.wallSeconds = wallSeconds
        self.name = name
        self.kind = kind
        self.status = status
        self.seconds = seconds
        self.errors = errors
        self.logTail = logTail
        self.blockedBy = blockedBy
        self.blocks = blocks
    }
}

/// A compiler diagnostic as `swiftc` and `clang` print it: `path:line:column: error: message`.
package struct CompilerDiagnostic: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The file, as the compiler printed it (absolute for SwiftPM builds).
    package var file: String
    /// The 1-based line.
    package var line: Int
    /// The 1-based column.
    package var column: Int
    /// The message after `error: `.
    package var message: String

    /// An error at `file:line:column`.
    package init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: error: message`, which editors and CI annotate.
    package var description: String { "\(file):\(line):\(column): error: \(message)" }

    /// The distinct errors in a build log, in the order printed. SwiftPM can print one error
    /// twice (once per compile job that saw it), so repeats are dropped.
    package static func errors(in log: String) -> [CompilerDiagnostic] {
        var found: [CompilerDiagnostic] = []
        for line in log.split(separator: "\n") {
            guard let diagnostic = parse(line), !found.contains(diagnostic) else { continue }
            found.append(diagnostic)
        }
        return found
    }

    /// Reads one `path:line:column: error: message` line; nil for anything else.
    static func parse(_ line: Substring) -> CompilerDiagnostic? {
        guard let marker = line.range(of: ": error: ") else { return nil }
        // The location is the last three colon-separated fields before the marker; a path may
        // itself hold colons.
        let location = line[..<marker.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
        guard location.count >= 3,
            let lineNumber = Int(location[location.count - 2]),
            let column = Int(location[location.count - 1])
        else { return nil }
        let file = location.dropLast(2).joined(separator: ":")
        guard !file.isEmpty else { return nil }
        return CompilerDiagnostic(
            file: file, line: lineNumber, column: column, message: String(line[marker.upperBound...]))
    }
}
