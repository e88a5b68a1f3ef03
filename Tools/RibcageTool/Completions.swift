import Foundation
import RibcagePackage
import RibcageScaffold

/// Shell completion of module names: `ribcage test <TAB>`, `graph --focus <TAB>`,
/// `new rib X --parent <TAB>`. ArgumentParser runs these when a shell asks, with the words typed
/// so far, so `--path` on the line is honoured.
enum Completions {
    /// How long Tab waits for `swift package describe` before offering nothing: a person
    /// pressing Tab would rather have no candidates than wait. `RIBCAGE_COMPLETION_TIMEOUT`
    /// (seconds) changes it, for a package whose manifest takes longer to read.
    static var describeTimeout: Duration {
        let seconds = ProcessInfo.processInfo.environment["RIBCAGE_COMPLETION_TIMEOUT"].flatMap(Double.init)
        return .milliseconds(Int((seconds ?? 2) * 1000))
    }

    /// The package's targets (test targets too), for `test` and `--focus`.
    ///
    /// `describe` runs with `--ignore-lock`: it only reads, and without it, Tab pressed while a
    /// build runs in the same package would wait for SwiftPM's `.build` lock, that is for the
    /// whole build.
    @Sendable static func modules(_ words: [String], _ index: Int, _ prefix: String) async -> [String] {
        guard let root = try? PackageLocator.root(fromPath: path(in: words)),
            let described = try? await Shell.run(
                "swift", ["package", "--ignore-lock", "describe", "--type", "json"], in: root,
                timeout: describeTimeout),
            described.succeeded,
            let package = try? PackageLoader.decodeDescription(described.standardOutput, root: root)
        else { return [] }
        return package.targets.map(\.name).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// The feature rows of the workspace's modules table, for `new rib --parent`.
    @Sendable static func features(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let root = try? PackageLocator.root(fromPath: path(in: words)),
            let source = try? String(
                contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8),
            let table = try? ModulesTable(source: source)
        else { return [] }
        return table.rows.filter { $0.kind == "feature" && $0.name.hasPrefix(prefix) }.map(\.name)
    }

    /// The value of `--path` on the command line, if typed.
    static func path(in words: [String]) -> String? {
        for (index, word) in words.enumerated() {
            if word == "--path", index + 1 < words.count { return words[index + 1] }
            if word.hasPrefix("--path=") { return String(word.dropFirst("--path=".count)) }
        }
        return nil
    }
}
