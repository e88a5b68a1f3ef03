import Foundation

/// The git work tree a package sits in: the one place ribcage runs git.
///
/// Paths go in and come out relative to ``root``, the package's folder, which may be a
/// subfolder of the repository: git names files from the repository's top in some commands
/// (`diff`, `status --porcelain`) and from the current folder in others (`ls-files`).
package struct GitWorkTree: Sendable {
    /// The package's folder, inside the work tree.
    package var root: URL

    /// The work tree at `root`. Nothing is checked until a question is asked: a folder outside
    /// any repository then fails with git's own words.
    package init(root: URL) {
        self.root = root
    }

    /// The work tree holding `root`, or nil when git is not installed or `root` is in none.
    package static func containing(_ root: URL) async throws -> GitWorkTree? {
        guard Shell.isOnPath("git") else { return nil }
        let inside = try await Shell.run("git", ["rev-parse", "--is-inside-work-tree"], in: root)
        guard inside.succeeded, inside.outputText.trimmingCharacters(in: .whitespacesAndNewlines) == "true"
        else { return nil }
        return GitWorkTree(root: root)
    }

    /// The files under ``root`` changed since `base` (committed or not), and the untracked ones
    /// that are not ignored.
    ///
    /// - Throws: ``RibcageError/commandNotFound(_:hint:)`` without git,
    ///   ``RibcageError/gitFailed(_:)`` when git refuses (`base` unknown, not a repository).
    package func changedFiles(since base: String) async throws -> [String] {
        guard Shell.isOnPath("git") else { throw RibcageError.commandNotFound("git", hint: "Install git.") }
        // `--no-renames`: a file moved between modules changed both; `--no-relative`: paths from
        // the top whatever `diff.relative` says.
        let changed = try await fromTop(
            fields(of: git("diff", "--name-only", "--no-renames", "--no-relative", "-z", base, "--", ".")))
        let untracked = try await fields(of: git("ls-files", "-z", "--others", "--exclude-standard"))
        return changed + untracked
    }

    /// Those of `files` that differ from the last commit: edited, staged, new or deleted.
    package func uncommitted(_ files: [String]) async throws -> [String] {
        let entries = try await fields(of: git(["status", "--porcelain", "-z", "--"] + files))
        // `XY path`; a rename or copy (`R`, `C`) is followed by a field with its old path,
        // which has changed too.
        var paths: [String] = []
        var index = 0
        while index < entries.count {
            let entry = entries[index]
            paths.append(String(entry.dropFirst(3)))
            if entry.prefix(2).contains(where: { $0 == "R" || $0 == "C" }), index + 1 < entries.count {
                paths.append(entries[index + 1])
                index += 1
            }
            index += 1
        }
        let changed = try await fromTop(paths)
        return files.filter(changed.contains)
    }

    /// `abc1234`, or `abc1234+changes` when anything under ``root`` is uncommitted; nil when
    /// there is no commit to name: ``root`` is in no repository, or its branch has no commit yet.
    ///
    /// - Throws: ``RibcageError/gitFailed(_:)`` when git cannot answer otherwise, for example
    ///   over a damaged index or objects it cannot read.
    package func headDescription() async throws -> String? {
        let head = try await Shell.run(
            "git", ["rev-parse", "--verify", "--quiet", "--short", "HEAD"], in: root)
        guard head.succeeded else {
            // Both expected cases fail here; which one is asked only now, so a repository with a
            // commit starts no more git than before. git's messages are localized, so its exit
            // statuses are what is read: `--quiet` makes a HEAD with no commit a silent 1 (git
            // itself says "No commits yet" of a branch file it cannot read, and so does this).
            let repository = try await Shell.run("git", ["rev-parse", "--git-dir"], in: root)
            if !repository.succeeded { return nil }
            if head.status == 1 && !head.wasSignalled && head.errorText.isEmpty { return nil }
            throw RibcageError.gitFailed("git rev-parse --verify HEAD: \(head.errorText)")
        }
        let hash = head.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
        let status = try await git("status", "--porcelain", "--", ".")
        return status.isEmpty ? hash : "\(hash)+changes"
    }

    /// Paths git gave from the repository's top, made relative to ``root``; those outside it
    /// are left out.
    private func fromTop(_ paths: [String]) async throws -> [String] {
        // Only the line's end goes: a folder's name may start or end with a space.
        var prefix = try await git("rev-parse", "--show-prefix")
        if prefix.hasSuffix("\n") { prefix.removeLast() }
        guard !prefix.isEmpty else { return paths }
        return paths.compactMap { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : nil }
    }

    /// The paths of a `-z` listing: NUL-separated and never quoted, whatever their characters.
    private func fields(of output: String) -> [String] {
        output.split(separator: "\0").map(String.init)
    }

    private func git(_ arguments: String...) async throws -> String {
        try await git(arguments)
    }

    private func git(_ arguments: [String]) async throws -> String {
        let result = try await Shell.run("git", arguments, in: root)
        guard result.succeeded else {
            throw RibcageError.gitFailed("git \(arguments.joined(separator: " ")): \(result.errorText)")
        }
        return result.outputText
    }
}
