import Foundation
import RibcagePackage

/// What a change to some files of a package reaches: the targets that own them, and every
/// target that depends on one of those, transitively; or everything, for a file every target
/// builds from. `ribcage test --affected` and `ribcage build --affected` select by it.
package enum ChangeImpact {
    /// Every target that owns one of `changedFiles` or depends on such a target, transitively,
    /// with why: `changed: Modules/And/And.swift`, `depends on And (changed)`. `ribcage test
    /// --affected` and `ribcage build --affected` use it.
    package static func affectedTargets(package: DescribedPackage, changedFiles: [String]) -> [String: String]
    {
        // Longest path first, so a target nested in another's folder claims its own files.
        let targets = package.targets.sorted { $0.path.count > $1.path.count }
        var reasons: [String: String] = [:]
        for file in changedFiles {
            guard let owner = targets.first(where: { file == $0.path || file.hasPrefix($0.path + "/") })
            else { continue }
            if reasons[owner.name] == nil { reasons[owner.name] = "changed: \(file)" }
        }
        // Everything that depends on a changed target, transitively, with the chain that led there.
        var dependents: [String: [String]] = [:]
        for target in package.targets {
            for dependency in target.targetDependencies {
                dependents[dependency, default: []].append(target.name)
            }
        }
        var frontier = reasons.keys.sorted()
        while let current = frontier.first {
            frontier.removeFirst()
            for dependent in (dependents[current] ?? []).sorted() where reasons[dependent] == nil {
                let origin = reasons[current]?.hasPrefix("changed") == true ? "\(current) (changed)" : current
                reasons[dependent] = "depends on \(origin)"
                frontier.append(dependent)
            }
        }
        return reasons
    }

    /// True for the files every target builds from: the manifest and its versioned variants, the
    /// resolved dependency versions, and Project.swift.md.
    package static func affectsEverything(_ file: String) -> Bool {
        ["Package.swift", "Package.resolved", "Project.swift.md"].contains(file)
            || (file.hasPrefix("Package@swift-") && file.hasSuffix(".swift") && !file.contains("/"))
    }

    /// The files changed since `base` in the git repository at `root`, untracked files included.
    package static func changedFiles(in root: URL, since base: String) async throws -> [String] {
        try await GitWorkTree(root: root).changedFiles(since: base)
    }
}
