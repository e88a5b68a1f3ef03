import Foundation

/// Environment variables that test code reads but Project.swift.md's **Test inputs** table does
/// not list, so they are in no cache key.
///
/// A traced run sees every file and program a test uses, but not the variables it reads: a
/// process reads `environ` from its own memory, with no system call to see. So the table stays
/// the truth, and this scan of the sources points at what it misses: a read through
/// `ProcessInfo.processInfo.environment["NAME"]` or `getenv("NAME")` (and `secure_getenv`). A
/// variable read from a dictionary the code was handed is not seen; the table says those.
package enum UndeclaredVariables {
    /// One read of an undeclared variable.
    package struct Finding: Sendable, Equatable {
        package var variable: String
        /// The file, relative to the package's root.
        package var file: String
        /// Counted from 1.
        package var line: Int

        /// The warning, with the row to add.
        package var warning: String {
            "warning: test cache: \(file):\(line) reads the environment variable \(variable), which "
                + "Project.swift.md's Test inputs table does not list, so a run with another value "
                + "reuses this one's result; if it can change a result, add the row `| `\(variable)` | why |`"
        }
    }

    /// Variables that only say where things are: what is found through them is traced (a
    /// program on `PATH` is recorded as it starts) or is made by the test (the temporary folder).
    package static let locations: Set<String> = ["PATH", "HOME", "TMPDIR", "TMUX_TMPDIR", "PWD"]

    private static let readers = [
        "processInfo.environment[\"", "getenv(\"", "secure_getenv(\"",
    ]

    /// The reads in `source` (the text of `file`) of variables not in `declared`, one per
    /// variable: its first read.
    package static func findings(in source: String, file: String, declared: Set<String>) -> [Finding] {
        guard readers.contains(where: source.contains) else { return [] }
        var found: [Finding] = []
        var seen: Set<String> = []
        // Inside a multi-line string literal: its lines are text, such as the source of a test
        // package that a test writes out, and read no variable of this process.
        var inText = false
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let delimiters = line.ranges(of: "\"\"\"").count
            let wasInText = inText
            if delimiters % 2 == 1 { inText.toggle() }
            if wasInText || delimiters > 0 { continue }
            // A comment that shows how to read a variable reads none.
            let code = line.drop { $0 == " " }
            if code.hasPrefix("//") || code.hasPrefix("*") { continue }
            for reader in readers {
                var rest = line[...]
                while let start = rest.range(of: reader) {
                    let name = rest[start.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                    rest = rest[start.upperBound...]
                    let variable = String(name)
                    guard !variable.isEmpty, rest.dropFirst(name.count).first == "\"",
                        !declared.contains(variable), !locations.contains(variable),
                        seen.insert(variable).inserted
                    else { continue }
                    found.append(Finding(variable: variable, file: file, line: index + 1))
                }
            }
        }
        return found
    }

    /// The findings in every Swift file of `folders` (relative to `root`), one per variable.
    package static func findings(inFolders folders: [String], root: URL, declared: Set<String>) -> [Finding] {
        var found: [Finding] = []
        var seen: Set<String> = []
        for folder in folders.sorted() {
            // Advice only: a folder or file that cannot be read fails the keys, which read them all.
            let files = (try? FileTreeDigests.files(under: root.appendingPathComponent(folder).path)) ?? []
            for file in files.map(\.path).sorted() where file.hasSuffix(".swift") {
                let path = folder + "/" + file
                guard let source = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                else { continue }
                for finding in findings(in: source, file: path, declared: declared)
                where seen.insert(finding.variable).inserted {
                    found.append(finding)
                }
            }
        }
        return found
    }
}
