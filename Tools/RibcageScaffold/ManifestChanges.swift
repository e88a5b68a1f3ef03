import Foundation
import RibcagePackage

/// Whether Package.swift and Project.swift.md may be edited: refused when they have uncommitted
/// changes that `ribcage new` did not make itself, so that several scaffolds in a row need no
/// commit in between, while a person's own edits are never mixed into a scaffold.
///
/// What the tool last wrote is kept in `.build/ribcage/scaffold/`; a file whose text equals it
/// holds only the tool's changes.
struct ManifestChanges {
    static let files = ["Package.swift", "Project.swift.md"]

    var root: URL

    private var ledger: URL { root.appendingPathComponent(".build/ribcage/scaffold", isDirectory: true) }

    /// The files with uncommitted changes the tool did not make; empty outside a git work tree.
    func foreignChanges() async throws -> [String] {
        guard let workTree = try await GitWorkTree.containing(root) else { return [] }
        return try await workTree.uncommitted(Self.files).filter { file in
            let current = try? Data(contentsOf: root.appendingPathComponent(file))
            let written = try? Data(contentsOf: ledger.appendingPathComponent(file))
            return current == nil || current != written
        }
    }

    /// Records the texts the tool has just written.
    func record() throws {
        try FileManager.default.createDirectory(at: ledger, withIntermediateDirectories: true)
        for file in Self.files {
            let data = try Data(contentsOf: root.appendingPathComponent(file))
            try data.write(to: ledger.appendingPathComponent(file))
        }
    }
}
