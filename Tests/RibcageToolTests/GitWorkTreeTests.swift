import Foundation
import RibcagePackage
import RibcageTesting
import Synchronization
import Testing

/// A real repository with the package in a subfolder, where git's commands disagree on what
/// their paths are relative to.
@Suite("Git work tree", .enabled(if: Shell.isOnPath("git"), "git is not installed"))
struct GitWorkTreeTests {
    let folder: TemporaryFolder
    var package: URL { folder.url.appendingPathComponent("app", isDirectory: true) }

    init() async throws {
        folder = try TemporaryFolder()
        try folder.write("// top\n", to: "README.md")
        try folder.write("// manifest\n", to: "app/Package.swift")
        try folder.write("// table\n", to: "app/Project.swift.md")
        try folder.write("let a = 1\n", to: "app/Sources/A/A.swift")
        try folder.write("let b = 1\n", to: "app/Sources/B/B with space é.swift")
        try await git("init", "-q")
        try await git("add", ".")
        try await git("commit", "-q", "-m", "first")
    }

    private func git(_ arguments: String...) async throws {
        let result = try await Shell.run(
            "git",
            [
                "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", "-C",
                folder.url.path,
            ]
                + arguments)
        #expect(result.succeeded, "git \(arguments): \(result.errorText)")
    }

    @Test("changed files are named from the package's folder, edits, untracked and odd names alike")
    func changedFiles() async throws {
        try folder.write("let a = 2\n", to: "app/Sources/A/A.swift")
        try folder.write("let b = 2\n", to: "app/Sources/B/B with space é.swift")
        try folder.write("let c = 1\n", to: "app/Sources/C/New.swift")
        try folder.write("// outside the package\n", to: "README.md")
        let changed = try await GitWorkTree(root: package).changedFiles(since: "HEAD")
        #expect(
            Set(changed) == ["Sources/A/A.swift", "Sources/B/B with space é.swift", "Sources/C/New.swift"])
    }

    @Test("a file moved between modules changed both, whatever diff.relative and diff.renames say")
    func moved() async throws {
        try await git("config", "diff.relative", "true")
        try await git("config", "diff.renames", "copies")
        try await git("mv", "app/Sources/A/A.swift", "app/Sources/B/A.swift")
        try await git("commit", "-q", "-m", "move")
        let changed = try await GitWorkTree(root: package).changedFiles(since: "HEAD~1")
        #expect(Set(changed) == ["Sources/A/A.swift", "Sources/B/A.swift"])
    }

    @Test("an unknown base is git's error, not an empty change")
    func unknownBase() async throws {
        await #expect(throws: RibcageError.self) {
            try await GitWorkTree(root: package).changedFiles(since: "no-such-branch")
        }
    }

    @Test("uncommitted manifests in a subfolder package are seen, staged, edited or renamed")
    func uncommitted() async throws {
        let workTree = try #require(try await GitWorkTree.containing(package))
        #expect(try await workTree.uncommitted(["Package.swift", "Project.swift.md"]).isEmpty)
        try folder.write("// edited\n", to: "app/Package.swift")
        #expect(try await workTree.uncommitted(["Package.swift", "Project.swift.md"]) == ["Package.swift"])
        try await git("add", "app/Package.swift")
        #expect(try await workTree.uncommitted(["Package.swift", "Project.swift.md"]) == ["Package.swift"])
        // A staged rename is one `R` entry naming both paths; each has changed.
        try await git("mv", "app/Project.swift.md", "app/Renamed.md")
        #expect(
            try await workTree.uncommitted(["Project.swift.md", "Renamed.md", "Package.swift"]) == [
                "Project.swift.md", "Renamed.md", "Package.swift",
            ])
    }

    @Test("the head is labelled with +changes only when the package has edits")
    func headDescription() async throws {
        let workTree = GitWorkTree(root: package)
        let clean = try #require(try await workTree.headDescription())
        #expect(!clean.isEmpty && !clean.hasSuffix("+changes"))
        try folder.write("// outside the package\n", to: "README.md")
        #expect(try await workTree.headDescription() == clean)
        try folder.write("let a = 3\n", to: "app/Sources/A/A.swift")
        #expect(try await workTree.headDescription() == clean + "+changes")
    }

    @Test("outside any repository there is no work tree and no head to name")
    func outside() async throws {
        let loose = try TemporaryFolder()
        #expect(try await GitWorkTree.containing(loose.url) == nil)
        #expect(try await GitWorkTree(root: loose.url).headDescription() == nil)
        #expect(await TestCacheSession.commit(at: loose.url, warn: { Issue.record("warned: \($0)") }) == nil)
    }

    @Test("a repository with no commit yet has no head to name")
    func unborn() async throws {
        let empty = try TemporaryFolder()
        let initialize = try await Shell.run("git", ["init", "-q"], in: empty.url)
        #expect(initialize.succeeded, "\(initialize.errorText)")
        #expect(try await GitWorkTree(root: empty.url).headDescription() == nil)
    }

    @Test("a head naming a commit git cannot read is git's error, and the test cache warns of it")
    func damagedHead() async throws {
        // The branch names an object the repository does not have, as after a copy that lost
        // part of .git/objects.
        let branch = try #require(
            try await Shell.run("git", ["symbolic-ref", "HEAD"], in: folder.url).outputText
                .split(separator: "\n").first)
        try folder.write(String(repeating: "1", count: 40) + "\n", to: ".git/\(branch)")
        await #expect(throws: RibcageError.self) {
            try await GitWorkTree(root: package).headDescription()
        }
        let warnings = Warnings()
        #expect(await TestCacheSession.commit(at: package, warn: warnings.append) == nil)
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("could not name the commit") == true, "\(warnings.all)")
    }
}

/// What a call warned, in order.
private final class Warnings: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    @Sendable func append(_ line: String) { lines.withLock { $0.append(line) } }
}
