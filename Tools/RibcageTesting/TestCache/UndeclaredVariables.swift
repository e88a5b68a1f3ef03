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
        // package that a test writes out, and read no variable of this process, but for their
        // interpolations.
        var inText = false
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            // A comment that shows how to read a variable reads none, and opens no string.
            let code = line.drop { $0 == " " }
            if !inText && (code.hasPrefix("//") || code.hasPrefix("*")) { continue }
            for span in codeSpans(of: line, inText: &inText) {
                for reader in readers {
                    var rest = span
                    while let start = rest.range(of: reader) {
                        let name = rest[start.upperBound...].prefix {
                            $0.isLetter || $0.isNumber || $0 == "_"
                        }
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
        }
        return found
    }

    /// The parts of `line` that are code: outside multi-line string literals (`inText` says
    /// whether the line starts inside one, and is left as the line ends), and the
    /// interpolations `\(…)` inside them.
    static func codeSpans(of line: Substring, inText: inout Bool) -> [Substring] {
        var spans: [Substring] = []
        var rest = line
        while !rest.isEmpty {
            if inText {
                // Text up to the closing delimiter (an escaped quote does not close it).
                var closing: Range<Substring.Index>?
                var search = rest
                while let found = search.range(of: "\"\"\""), closing == nil {
                    if found.lowerBound > rest.startIndex, rest[rest.index(before: found.lowerBound)] == "\\"
                    {
                        search = rest[found.upperBound...]
                    } else {
                        closing = found
                    }
                }
                let text = rest[..<(closing?.lowerBound ?? rest.endIndex)]
                spans += interpolations(in: text)
                guard let closing else { return spans }
                inText = false
                rest = rest[closing.upperBound...]
            } else {
                // Code up to a comment or an opening delimiter, outside one-line strings.
                switch nextBreak(in: rest) {
                case .opening(let opening):
                    spans.append(rest[..<opening.lowerBound])
                    inText = true
                    rest = rest[opening.upperBound...]
                case .comment(let start):
                    spans.append(rest[..<start])
                    return spans
                case nil:
                    spans.append(rest)
                    return spans
                }
            }
        }
        return spans
    }

    private enum Break {
        case opening(Range<Substring.Index>)
        case comment(Substring.Index)
    }

    /// Where `code` stops being code: a multi-line string's opening `"""` or a `//` comment, either
    /// outside a one-line string; nil when it is code to its end.
    private static func nextBreak(in code: Substring) -> Break? {
        var inQuote = false
        var index = code.startIndex
        while index < code.endIndex {
            let rest = code[index...]
            if inQuote {
                if rest.hasPrefix("\\") {
                    index = code.index(index, offsetBy: 2, limitedBy: code.endIndex) ?? code.endIndex
                    continue
                }
                if rest.hasPrefix("\"") { inQuote = false }
            } else if rest.hasPrefix("\"\"\"") {
                return .opening(index..<code.index(index, offsetBy: 3))
            } else if rest.hasPrefix("//") {
                return .comment(index)
            } else if rest.hasPrefix("\"") {
                inQuote = true
            }
            index = code.index(after: index)
        }
        return nil
    }

    /// The interpolations `\(…)` in a string's text, each up to its matching parenthesis.
    private static func interpolations(in text: Substring) -> [Substring] {
        var found: [Substring] = []
        var rest = text
        while let start = rest.range(of: "\\(") {
            var depth = 1
            var index = start.upperBound
            while index < rest.endIndex, depth > 0 {
                if rest[index] == "(" { depth += 1 }
                if rest[index] == ")" { depth -= 1 }
                index = rest.index(after: index)
            }
            found.append(rest[start.upperBound..<index])
            rest = rest[index...]
        }
        return found
    }

    /// What scanning a package's folders found.
    package struct FolderScan: Sendable, Equatable {
        /// One per variable, at its first read.
        package var findings: [Finding] = []
        /// Why a folder or Swift file could not be scanned (unreadable, or not UTF-8): its
        /// variables went unchecked, which the user should hear rather than take the silence
        /// for a clean bill.
        package var unscanned: [String] = []
    }

    /// The findings in every Swift file of `folders` (relative to `root`), one per variable,
    /// and what could not be read.
    package static func findings(inFolders folders: [String], root: URL, declared: Set<String>) -> FolderScan
    {
        var scan = FolderScan()
        var seen: Set<String> = []
        for folder in folders.sorted() {
            let files: [FileTreeDigests.File]
            do {
                files = try FileTreeDigests.files(under: root.appendingPathComponent(folder).path)
            } catch {
                scan.unscanned.append("\(folder): \(error)")
                continue
            }
            for file in files.map(\.path).sorted() where file.hasSuffix(".swift") {
                let path = folder + "/" + file
                let source: String
                do {
                    source = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                } catch {
                    scan.unscanned.append("\(path): \(error.localizedDescription)")
                    continue
                }
                for finding in findings(in: source, file: path, declared: declared)
                where seen.insert(finding.variable).inserted {
                    scan.findings.append(finding)
                }
            }
        }
        return scan
    }
}
