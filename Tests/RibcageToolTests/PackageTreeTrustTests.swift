import Foundation
import RibcagePackage
import Testing

/// `graph --packages` reads the package tree from `.build` only while that record matches what
/// SwiftPM would resolve; otherwise it says so and asks `swift package show-dependencies`.
/// On hummingbird's real checkouts, copied into a fixture whose record is then made stale.
@Suite("Package tree from checkouts: when not to trust it", .serialized)
struct PackageTreeTrustTests {
    /// A copy of a resolved package's record of its checkouts (`Package.swift`,
    /// `Package.resolved`, `.build/workspace-state.json` and the manifest cache), its
    /// checkouts linked, not copied.
    struct Fixture {
        let folder: TemporaryFolder
        let package: DescribedPackage
        var root: URL { folder.url }

        init() async throws {
            let original = try await ThirdPartyPackage.hummingbird.resolvedCheckout()
            package = try await PackageLoader.load(packageAt: original, note: { _ in })
            // The tree from the untouched record, which also fills the manifest cache.
            let tree = try #require(
                try await PackageDependencies.fromCheckouts(root: original, package: package))
            #expect(tree.all.contains { $0.identity == "swift-asn1" }, "transitively, through swift-crypto")
            folder = try TemporaryFolder()
            let files = FileManager.default
            let build = folder.url.appendingPathComponent(".build/checkouts", isDirectory: true)
            try files.createDirectory(at: build, withIntermediateDirectories: true)
            for file in ["Package.swift", "Package.resolved", ".build/workspace-state.json"] {
                try files.copyItem(
                    at: original.appendingPathComponent(file), to: folder.url.appendingPathComponent(file))
            }
            try files.copyItem(
                at: original.appendingPathComponent(".build/ribcage"),
                to: folder.url.appendingPathComponent(".build/ribcage"))
            let checkouts = original.appendingPathComponent(".build/checkouts")
            for name in try files.contentsOfDirectory(atPath: checkouts.path) {
                try files.createSymbolicLink(
                    at: build.appendingPathComponent(name),
                    withDestinationURL: checkouts.appendingPathComponent(name))
            }
        }

        var tree: PackageDependencies? {
            get async throws { try await PackageDependencies.fromCheckouts(root: root, package: package) }
        }

        /// Replaces every `from` in `file` with `to`, and checks there was one.
        func edit(_ file: String, replacing from: String, with to: String) throws {
            let url = root.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains(from), "\(file) holds \(from)")
            try Data(text.replacingOccurrences(of: from, with: to).utf8).write(to: url)
        }

        /// The revision `Package.resolved` pins `identity` at.
        func pin(of identity: String) throws -> String {
            try #require(DependencyProducts.pinnedRevisions(root: root)[identity])
        }
    }

    @Test("the copied record, untouched, gives the tree: the fixture itself is sound")
    func untouched() async throws {
        let fixture = try await Fixture()
        let tree = try #require(try await fixture.tree)
        #expect(tree.all.contains { $0.identity == "swift-asn1" })
    }

    @Test("a transitive package whose checkout was deleted: no tree, not a tree without it")
    func transitiveCheckoutDeleted() async throws {
        let fixture = try await Fixture()
        try FileManager.default.removeItem(
            at: fixture.root.appendingPathComponent(".build/checkouts/swift-asn1"))
        #expect(try await fixture.tree == nil)
    }

    @Test("a transitive package SwiftPM's record does not list: no tree")
    func transitiveNotRecorded() async throws {
        let fixture = try await Fixture()
        try fixture.edit(
            ".build/workspace-state.json", replacing: "\"identity\" : \"swift-asn1\"",
            with: "\"identity\" : \"swift-asn1-gone\"")
        #expect(try await fixture.tree == nil)
    }

    @Test("a Package.resolved pin newer than the last resolve: no tree")
    func pinMovedSinceResolve() async throws {
        let fixture = try await Fixture()
        let pinned = try fixture.pin(of: "swift-nio")
        try fixture.edit("Package.resolved", replacing: pinned, with: String(repeating: "0", count: 40))
        #expect(try await fixture.tree == nil)
    }

    @Test("a checkout the tree does not reach has its manifest left unread")
    func unreachedCheckoutNotDumped() async throws {
        let fixture = try await Fixture()
        // SwiftPM's record keeps a checkout nothing uses any more: swift-log's folder, as a
        // package `stale-package` at a revision no manifest cache holds.
        let state = fixture.root.appendingPathComponent(".build/workspace-state.json")
        var document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any])
        var object = try #require(document["object"] as? [String: Any])
        var dependencies = try #require(object["dependencies"] as? [[String: Any]])
        var stale = try #require(
            dependencies.first { ($0["packageRef"] as? [String: Any])?["identity"] as? String == "swift-log" }
        )
        var reference = try #require(stale["packageRef"] as? [String: Any])
        reference["identity"] = "stale-package"
        stale["packageRef"] = reference
        var checkoutState = try #require(
            (stale["state"] as? [String: Any])?["checkoutState"] as? [String: Any])
        checkoutState["revision"] = "stale-revision"
        stale["state"] = ["name": "sourceControlCheckout", "checkoutState": checkoutState]
        dependencies.append(stale)
        object["dependencies"] = dependencies
        document["object"] = object
        try JSONSerialization.data(withJSONObject: document).write(to: state)

        let tree = try #require(try await fixture.tree)
        #expect(!tree.all.contains { $0.identity == "stale-package" })
        let cached = fixture.root.appendingPathComponent(
            ".build/ribcage/manifests/stale-package-stale-revision.json")
        #expect(!FileManager.default.fileExists(atPath: cached.path), "its manifest was dumped")
    }

    /// A `swift` that answers `describe` and `show-dependencies` from the untouched package,
    /// so the fallback is seen without a resolve that would fetch twenty packages again,
    /// and runs the real one for everything else.
    static func fakeSwift(in folder: TemporaryFolder, original: URL) async throws -> URL {
        let real = try await Shell.run("sh", ["-c", "command -v swift"])
        let describe = try await Shell.run("swift", ["package", "describe", "--type", "json"], in: original)
        let shown = try await Shell.run(
            "swift", ["package", "show-dependencies", "--format", "json"], in: original)
        #expect(describe.succeeded && shown.succeeded, "\(describe.errorText)\(shown.errorText)")
        try describe.standardOutput.write(to: folder.url.appendingPathComponent("describe.json"))
        try shown.standardOutput.write(to: folder.url.appendingPathComponent("shown.json"))
        let here = folder.url.path
        try folder.write(
            """
            #!/bin/sh
            case "$1 $2" in
            "package describe") cat '\(here)/describe.json' ;;
            "package show-dependencies") echo "$PWD" >> '\(here)/show-dependencies-runs'; cat '\(here)/shown.json' ;;
            *) exec '\(real.outputText.trimmingCharacters(in: .whitespacesAndNewlines))' "$@" ;;
            esac

            """, to: "bin/swift")
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755], ofItemAtPath: folder.url.appendingPathComponent("bin/swift").path)
        return folder.url.appendingPathComponent("bin")
    }

    @Test("ribcage graph --packages on a stale record says so and uses show-dependencies")
    func graphFallsBack() async throws {
        let fixture = try await Fixture()
        let pinned = try fixture.pin(of: "swift-nio")
        try fixture.edit("Package.resolved", replacing: pinned, with: String(repeating: "0", count: 40))
        try FileManager.default.removeItem(
            at: fixture.root.appendingPathComponent(".build/checkouts/swift-asn1"))
        let tools = try TemporaryFolder()
        let bin = try await Self.fakeSwift(
            in: tools, original: try await ThirdPartyPackage.hummingbird.checkout())
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let graph = try await Shell.run(
            try await RibcageExecutableTests.ribcageExecutable().path,
            ["graph", "--packages", "--format", "json", "--path", fixture.root.path],
            environment: ["PATH": bin.path + ":" + path])
        #expect(graph.succeeded, "\(graph.errorText)")
        #expect(graph.errorText.contains("note: the dependencies are not all checked out"))
        let runs = try String(
            contentsOf: tools.url.appendingPathComponent("show-dependencies-runs"), encoding: .utf8)
        #expect(runs.split(separator: "\n").count == 1)
        let document = try #require(
            try JSONSerialization.jsonObject(with: graph.standardOutput) as? [String: Any])
        let packages = try #require(document["packages"] as? [[String: Any]])
        #expect(
            packages.contains { $0["identity"] as? String == "swift-asn1" },
            "the tree is show-dependencies', whole")
    }
}
