import Foundation

/// What a quarantined test does in `ribcage test`.
package enum QuarantineMode: String, Sendable, Codable, CaseIterable {
    /// It runs and its outcome is recorded, but its failure does not fail the run.
    case mute
    /// It never starts (`swift test --skip`).
    case skip
}

/// The tests Project.swift.md's **Quarantine** table sets apart, and how.
///
/// The table lives in the repository, beside the code, so a quarantine is reviewed like any
/// other change and holds on every machine and in every path of `ribcage test` (selected,
/// affected, sharded, cached, retried):
///
/// ```
/// ## Quarantine
///
/// | Test | Mode | Reason | Since |
/// |------|------|--------|-------|
/// | `StoreTests.SyncTests/testRace` | mute | races the file watcher (#12) | 2026-11-28 |
/// ```
package struct Quarantine: Sendable, Equatable {
    /// One row of the table.
    package struct Entry: Sendable, Equatable, Codable {
        /// The test, as `ribcage test` prints it: `Target.Suite/name`.
        package var test: String
        package var mode: QuarantineMode
        /// Why, for the people who will lift it.
        package var reason: String
        /// The day it was quarantined, `YYYY-MM-DD`.
        package var since: String

        package init(test: String, mode: QuarantineMode, reason: String, since: String) {
            self.test = test
            self.mode = mode
            self.reason = reason
            self.since = since
        }

        /// The module of the test target the test belongs to, as the test's name has it: the
        /// target's name when that is an identifier (``TestCaseFilter/moduleName(ofTarget:)``).
        package var testTarget: String { TestCaseFilter.testTarget(ofTest: test) }

        /// The row as Project.swift.md writes it.
        package var markdownRow: String {
            "| `\(test)` | \(mode.rawValue) | \(reason.replacingOccurrences(of: "|", with: "/")) | \(since) |"
        }
    }

    /// The table's heading, under `## `.
    package static let section = ProjectManifest.quarantineSection
    /// The table's header row.
    package static let headerRow = "| Test | Mode | Reason | Since |"

    /// The rows, in the table's order.
    package var entries: [Entry]

    /// A quarantine of `entries`.
    package init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// Reads the table from a Project.swift.md's text; no table is an empty quarantine.
    ///
    /// - Throws: ``RibcageError/badQuarantine(_:)`` for a row without a test, with a mode other
    ///   than `mute` or `skip`, or naming a test twice: a quarantine that cannot be applied as
    ///   written must not be applied half.
    package init(markdown: String) throws {
        var entries: [Entry] = []
        for cells in ProjectManifest.table(named: Self.section, in: markdown) {
            let entry = try Self.entry(cells: cells)
            guard !entries.contains(where: { $0.test == entry.test }) else {
                throw RibcageError.badQuarantine("\(entry.test) has two rows")
            }
            entries.append(entry)
        }
        self.entries = entries
    }

    /// The row whose cells are `cells`.
    ///
    /// - Throws: ``RibcageError/badQuarantine(_:)`` for a row without a test named
    ///   `Target.Suite/name`, or with a mode other than `mute` or `skip`.
    package static func entry(cells: [String]) throws -> Entry {
        guard cells.count >= 2, !cells[0].isEmpty, cells[0].contains("/") else {
            throw RibcageError.badQuarantine(
                "the row `\(cells.joined(separator: " | "))` does not start with a test named Target.Suite/name"
            )
        }
        guard let mode = QuarantineMode(rawValue: cells[1].lowercased()) else {
            throw RibcageError.badQuarantine("\(cells[0])'s mode is '\(cells[1])'; it must be mute or skip")
        }
        return Entry(
            test: cells[0], mode: mode, reason: cells.count > 2 ? cells[2] : "",
            since: cells.count > 3 ? cells[3] : "")
    }

    /// The quarantine of the package at `root`: its Project.swift.md's table, or none.
    package static func load(packageAt root: URL) throws -> Quarantine {
        let file = root.appendingPathComponent("Project.swift.md")
        guard FileManager.default.fileExists(atPath: file.path) else { return Quarantine() }
        return try Quarantine(markdown: try String(contentsOf: file, encoding: .utf8))
    }

    /// The row for the test `id` (`Target.Suite/name`), if it has one.
    package func entry(for id: String) -> Entry? {
        entries.first { $0.test == id }
    }

    /// The skipped tests of `testTargets` (by target name; an entry's test names the module).
    package func skipped(in testTargets: some Sequence<String>) -> [Entry] {
        let modules = Set(testTargets.map(TestCaseFilter.moduleName(ofTarget:)))
        return entries.filter { $0.mode == .skip && modules.contains($0.testTarget) }
    }

    /// `text` (a Project.swift.md) with `entry` as its row: replacing the test's row, else
    /// added to the table, which is created at the end of the file when there is none.
    package static func writing(_ entry: Entry, into text: String) throws -> String {
        var lines = text.components(separatedBy: "\n")
        let heading = lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "## \(section)" }
        guard let heading else {
            let table = [
                "## \(section)", "",
                "Tests set apart until they are fixed; `ribcage test` mutes (runs, but a failure does "
                    + "not fail the run) or skips them. Written by `ribcage flaky --quarantine`.",
                "", headerRow, "|------|------|--------|-------|", entry.markdownRow,
            ]
            let trimmed = text.hasSuffix("\n") ? String(text.dropLast()) : text
            return trimmed + "\n\n" + table.joined(separator: "\n") + "\n"
        }
        var end = heading + 1
        var lastRow: Int?
        while end < lines.count, !lines[end].hasPrefix("## ") {
            let line = lines[end].trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("|") {
                lastRow = end
                let first = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().first
                    .map { $0.replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces) }
                if first == entry.test {
                    lines[end] = entry.markdownRow
                    return lines.joined(separator: "\n")
                }
            }
            end += 1
        }
        guard let lastRow else {
            throw RibcageError.badQuarantine(
                "the Quarantine section has no table (its header is \(headerRow))")
        }
        lines.insert(entry.markdownRow, at: lastRow + 1)
        return lines.joined(separator: "\n")
    }
}
