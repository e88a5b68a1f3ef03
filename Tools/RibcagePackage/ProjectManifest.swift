import Foundation

/// The tables of a workspace's `Project.swift.md`, in the fixed format that file documents.
package struct ProjectManifest: Sendable, Equatable {
    /// One row of the Modules table.
    package struct ModuleRow: Sendable, Equatable {
        /// The module's name.
        package var name: String
        /// Its folder.
        package var path: String
        /// Its layer: Core, Domain, Data, Features, Apps or Tools.
        package var layer: String
        /// The Role cell, as written; ``role`` reads it.
        package var roleCell: String
        /// What the module is for, or `nil` when the Role cell is none of the roles.
        package var role: ModuleRole? { ModuleRole(cell: roleCell) }
        /// The Dependencies cell, split: workspace modules as names, external products as
        /// `Product (package)`.
        package var dependencies: [String]
        /// The test target, or `nil` for `—`.
        package var testTarget: String?
    }

    /// The Modules table, in file order.
    package var modules: [ModuleRow]
    /// The Layers table: each layer and the layers it may depend on.
    package var allowedLayers: [String: Set<String>]
    /// The Feature edges table: parent → child feature RIBs.
    package var featureEdges: Set<[String]>
    /// The cells of the Quarantine table's rows, as written; ``Quarantine`` reads them and
    /// `ribcage lint` checks them.
    package var quarantineRows: [[String]] = []
    /// The Quarantine table's heading, under `## `.
    package static let quarantineSection = "Quarantine"
    /// The test targets the "Untraced test targets" table lists, as written.
    package var untracedTestTargets: [String] = []
    /// The "Local-only test targets" table: test targets `ribcage test --remote-executor` runs
    /// here, with why, as written.
    package var localOnlyTestTargets: [String: String] = [:]

    /// Reads the tables from Markdown text.
    package init(markdown: String) {
        modules = Self.table(named: "Modules", in: markdown).compactMap { cells in
            guard cells.count >= 6 else { return nil }
            let list = { (cell: String) -> [String] in
                cell == "—" || cell.isEmpty
                    ? [] : cell.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
            return ModuleRow(
                name: cells[0], path: cells[1], layer: cells[2], roleCell: cells[3],
                dependencies: list(cells[4]),
                testTarget: cells[5] == "—" ? nil : cells[5])
        }
        var allowed: [String: Set<String>] = [:]
        for cells in Self.table(named: "Layers", in: markdown) where cells.count >= 2 {
            allowed[cells[0]] = Set(
                cells[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        allowedLayers = allowed
        featureEdges = Set(
            Self.table(named: "Feature edges", in: markdown).filter { $0.count >= 2 }.map { [$0[0], $0[1]] })
        quarantineRows = Self.table(named: Self.quarantineSection, in: markdown)
        untracedTestTargets = Self.table(named: "Untraced test targets", in: markdown).compactMap(\.first)
            .filter { !$0.isEmpty }
        localOnlyTestTargets = Dictionary(
            Self.table(named: "Local-only test targets", in: markdown).compactMap { cells in
                cells.first.flatMap { $0.isEmpty ? nil : ($0, cells.dropFirst().first ?? "") }
            }, uniquingKeysWith: { first, _ in first })
    }

    /// Reads `Project.swift.md` in `root`, or returns `nil` if there is none.
    package static func load(packageAt root: URL) throws -> ProjectManifest? {
        let file = root.appendingPathComponent("Project.swift.md")
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        return ProjectManifest(markdown: try String(contentsOf: file, encoding: .utf8))
    }

    /// The layer of each module and of each test target (`Tests`).
    package var layers: [String: String] {
        var layers: [String: String] = [:]
        for module in modules {
            layers[module.name] = module.layer
            if let testTarget = module.testTarget { layers[testTarget] = "Tests" }
        }
        return layers
    }

    /// The data rows of the table under `## <name>`, cells trimmed, backticks removed.
    package static func table(named name: String, in markdown: String) -> [[String]] {
        var rows: [[String]] = []
        var inSection = false
        var sawSeparator = false
        for rawLine in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            // Only a heading, or a row inside the section, is trimmed and read: every look-up of
            // the test cache reads one small table out of a Modules table of hundreds of rows.
            let first = rawLine.first { !$0.unicodeScalars.allSatisfy(CharacterSet.whitespaces.contains) }
            guard first == "#" || (inSection && first == "|") else { continue }
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("## ") {
                if inSection { break }
                inSection = line.dropFirst(3).trimmingCharacters(in: .whitespaces) == name
                continue
            }
            guard inSection, line.hasPrefix("|") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces) }
            if cells.allSatisfy({ $0.allSatisfy { "-: ".contains($0) } }) {
                sawSeparator = true
                continue
            }
            // The row before the separator is the header.
            if sawSeparator { rows.append(Array(cells)) }
        }
        return rows
    }
}
