import Foundation
import RibcagePackage
import RibcageScaffold
import Testing

/// `ribcage new rib` on this very workspace, as formatted today: a RIB under each existing
/// feature, in a copy of the repository, built with warnings as errors and linted.
@Suite("ribcage new on this workspace", .serialized)
struct WorkspaceScaffoldTests {
    /// The repository this test file belongs to.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardizedFileURL

    /// The tracked and untracked-but-not-ignored files of the repository, copied into a fresh
    /// git repository with one commit.
    static func copyOfWorkspace() async throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let files = try await Shell.run(
            "git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], in: repository)
        #expect(files.succeeded, "\(files.errorText)")
        for path in files.outputText.split(separator: "\0").map(String.init) {
            let source = repository.appendingPathComponent(path)
            // A file deleted but not yet staged is listed, and has nothing to copy.
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            let destination = folder.url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: destination)
        }
        for arguments in [["init", "-q"], ["add", "."], ["commit", "-qm", "copy"]] {
            let git = try await Shell.run(
                "git", ["-c", "user.name=t", "-c", "user.email=t@t"] + arguments, in: folder.url)
            #expect(git.succeeded, "git \(arguments): \(git.errorText)")
        }
        return folder
    }

    @Test("a RIB with --parent under each existing feature builds and passes ribcage lint")
    func underEachFeature() async throws {
        let source = try String(
            contentsOf: Self.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let features = try ModulesTable(source: source).rows.filter { $0.kind == "feature" }.map(\.name)
        #expect(features.count >= 4, "the workspace's features: \(features)")
        let folder = try await Self.copyOfWorkspace()
        let path = folder.url.path

        // One after another, with no commit between: the tool's own changes never block it.
        for parent in features {
            let result = try await RibcageExecutableTests.ribcage([
                "new", "rib", "\(parent)Extra", "--parent", parent, "--path", path,
            ])
            #expect(result.succeeded, "under \(parent): \(result.errorText)")
        }
        let lintFormat = try await Shell.run(
            "swift", ["format", "lint", "--strict", "Package.swift"], in: folder.url)
        #expect(
            lintFormat.succeeded && lintFormat.errorText.isEmpty, "still formatted: \(lintFormat.errorText)")

        // The parents (each now extended to satisfy its child) and the children's test targets.
        // Warnings are errors in this workspace, so a template that warns fails here.
        for target in features + features.map({ "\($0)ExtraTests" }) {
            let build = try await Shell.run("swift", ["build", "--target", target], in: folder.url)
            #expect(build.succeeded, "swift build --target \(target):\n\(build.outputText.suffix(4_000))")
            if !build.succeeded { return }
        }
        let lint = try await RibcageExecutableTests.ribcage(["lint", "--path", path])
        #expect(lint.succeeded, "\(lint.outputText)\(lint.errorText)")
        #expect(lint.outputText.hasSuffix("0 errors, 0 warnings\n"))
    }
}
