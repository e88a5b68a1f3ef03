import RibcagePackage

/// Edits of the Markdown tables of a Project.swift.md (see ``ProjectManifest`` for the format).
enum ProjectTables {
    /// `text` with `row` added after the last row of the table under `## <table>` that
    /// `isNeighbour` accepts, or after its last row.
    static func appendingRow(
        _ row: String, toTable table: String, afterRowsWhere isNeighbour: (String) -> Bool = { _ in false },
        in text: String
    ) throws -> String {
        var lines = text.components(separatedBy: "\n")
        guard
            let heading = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "## \(table)" }
            )
        else {
            throw RibcageError.scaffoldRefused("Project.swift.md has no `## \(table)` section")
        }
        var last: Int?
        var lastNeighbour: Int?
        var index = heading + 1
        while index < lines.count, !lines[index].hasPrefix("## ") {
            if lines[index].hasPrefix("|") {
                last = index
                if isNeighbour(lines[index]) { lastNeighbour = index }
            }
            index += 1
        }
        guard let last = lastNeighbour ?? last else {
            throw RibcageError.scaffoldRefused("the \(table) section of Project.swift.md has no table")
        }
        lines.insert(row, at: last + 1)
        return lines.joined(separator: "\n")
    }

    /// `text` with `dependency` added to the Dependencies cell of `module`'s row.
    static func addingDependency(_ dependency: String, toModuleRow module: String, in text: String) throws
        -> String
    {
        var lines = text.components(separatedBy: "\n")
        let rowIndex = lines.firstIndex { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            return cells.count >= 7
                && cells[1].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "")
                    == module
        }
        guard let rowIndex else {
            throw RibcageError.scaffoldRefused("Project.swift.md has no Modules row for '\(module)'")
        }
        var cells = lines[rowIndex].components(separatedBy: "|")
        let current = cells[5].trimmingCharacters(in: .whitespaces)
        cells[5] = " " + (current == "—" || current.isEmpty ? dependency : "\(current), \(dependency)") + " "
        lines[rowIndex] = cells.joined(separator: "|")
        return lines.joined(separator: "\n")
    }
}
