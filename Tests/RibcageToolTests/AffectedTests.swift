import Foundation
import RibcagePackage
import RibcageTesting
import Testing

@Suite("Affected selection and sharding")
struct AffectedTests {
    static let package = DescribedPackage(
        name: "Fixture", path: "/fixture",
        targets: [
            .init(name: "Core", type: "library", path: "Modules/Core"),
            .init(name: "Feature", type: "library", path: "Modules/Feature", targetDependencies: ["Core"]),
            .init(name: "App", type: "executable", path: "Apps/App", targetDependencies: ["Feature"]),
            .init(name: "Other", type: "library", path: "Modules/Other"),
            .init(name: "CoreTests", type: "test", path: "Tests/CoreTests", targetDependencies: ["Core"]),
            .init(
                name: "FeatureTests", type: "test", path: "Tests/FeatureTests",
                targetDependencies: ["Feature"]),
            .init(name: "AppTests", type: "test", path: "Tests/AppTests", targetDependencies: ["App"]),
            .init(name: "OtherTests", type: "test", path: "Tests/OtherTests", targetDependencies: ["Other"]),
        ])

    static func select(_ files: [String]) -> [String: String] {
        let selection = AffectedSelection(
            package: package, index: TestSuiteIndex(package: package), changedFiles: files)
        return Dictionary(uniqueKeysWithValues: selection.choices.map { ($0.suite.testTarget, $0.reason) })
    }

    @Test("selects changed modules and everything that depends on them, saying why")
    func dependents() {
        #expect(
            Self.select(["Modules/Core/Core.swift", "README.md"]) == [
                "CoreTests": "depends on Core (changed)",
                "FeatureTests": "depends on Feature",
                "AppTests": "depends on App",
            ])
    }

    @Test("a change to a test target runs just that suite; unrelated files select nothing")
    func testsAndUnrelated() {
        #expect(
            Self.select(["Tests/OtherTests/OtherTests.swift"]) == [
                "OtherTests": "changed: Tests/OtherTests/OtherTests.swift"
            ])
        #expect(Self.select(["README.md", "docs/x.md"]).isEmpty)
    }

    @Test(
        "what every target builds from selects everything",
        arguments: ["Package.swift", "Project.swift.md", "Package.resolved", "Package@swift-6.0.swift"])
    func manifests(_ file: String) {
        let selected = Self.select([file])
        #expect(selected.count == 4)
        #expect(selected.values.allSatisfy { $0 == "\(file) changed: everything is affected" })
    }

    @Test("a file merely named like a manifest, in a folder, is an ordinary change")
    func nestedManifestName() {
        #expect(Self.select(["docs/Package.resolved", "docs/Package@swift-6.0.swift"]).isEmpty)
    }

    @Test("shards cover every suite exactly once, balanced by weight")
    func sharding() {
        let suites = TestSuiteIndex(package: Self.package).suites
        let weights = ["CoreTests": 10.0, "FeatureTests": 6, "AppTests": 4, "OtherTests": 4]
        let shards = (1...2).map { TestSharding.shard(suites, index: $0, of: 2, weights: weights) }
        #expect(shards.flatMap { $0 }.count == suites.count)
        #expect(Set(shards.flatMap { $0 }) == Set(suites))
        let loads = shards.map { $0.reduce(0) { $0 + (weights[$1.testTarget] ?? 0) } }
        #expect(loads.sorted() == [10, 14])
        for count in 1...6 {
            let all = (1...count).flatMap { TestSharding.shard(suites, index: $0, of: count, weights: [:]) }
            #expect(all.count == suites.count && Set(all) == Set(suites), "\(count) shards")
        }
    }

    @Test("--affected reads a real git repository")
    func gitRepository() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(name: "Fixture", targets: [
                .target(name: "Base"), .target(name: "Feature", dependencies: ["Base"]), .target(name: "Other"),
                .testTarget(name: "BaseTests", dependencies: ["Base"]),
                .testTarget(name: "FeatureTests", dependencies: ["Feature"]),
                .testTarget(name: "OtherTests", dependencies: ["Other"]),
            ])
            """, to: "Package.swift")
        for target in ["Base", "Feature", "Other"] {
            try folder.write(
                "public let \(target.lowercased()) = 1\n", to: "Sources/\(target)/\(target).swift")
            try folder.write("import Testing\n@Test func t() {}\n", to: "Tests/\(target)Tests/T.swift")
        }
        let git = { (arguments: [String]) async throws -> ProcessResult in
            try await Shell.run(
                "git", ["-c", "user.name=t", "-c", "user.email=t@t", "-C", folder.url.path] + arguments)
        }
        try folder.write("{}\n", to: "Package.resolved")
        #expect(try await git(["init", "-q"]).succeeded)
        // Package.resolved is committed, as a project pins its dependencies (`-f`: some machines
        // ignore it globally).
        #expect(try await git(["add", "-f", "."]).succeeded)
        #expect(try await git(["commit", "-qm", "start"]).succeeded)
        try folder.write("public let base = 2\n", to: "Sources/Base/Base.swift")

        let listing = try await RibcageExecutableTests.ribcage([
            "test", "--affected", "--list", "--path", folder.url.path,
        ])
        #expect(listing.succeeded, "\(listing.errorText)")
        let lines = listing.outputText.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "Test target   Tests",
                "BaseTests     Base  (depends on Base (changed))",
                "FeatureTests  Feature  (depends on Feature)",
            ])

        // A new Package.resolved (other dependency versions) or a Package@swift-*.swift changes
        // what every target builds from.
        for manifest in ["Package.resolved", "Package@swift-6.0.swift"] {
            #expect(try await git(["checkout", "-q", "--", "."]).succeeded)
            // SwiftPM reads Package@swift-6.0.swift instead of Package.swift here, so it must be one.
            let text =
                manifest == "Package.resolved"
                ? "{\"pins\": []}\n"
                : try String(contentsOf: folder.url.appendingPathComponent("Package.swift"), encoding: .utf8)
            try folder.write(text, to: manifest)
            let everything = try await RibcageExecutableTests.ribcage([
                "test", "--affected", "--list", "--path", folder.url.path,
            ])
            #expect(
                everything.outputText.split(separator: "\n").dropFirst().map {
                    $0.split(separator: " ").first ?? ""
                }
                    == ["BaseTests", "FeatureTests", "OtherTests"], "\(manifest): \(everything.outputText)")
            if manifest != "Package.resolved" {
                try FileManager.default.removeItem(at: folder.url.appendingPathComponent(manifest))
            }
        }

        let badBase = try await RibcageExecutableTests.ribcage([
            "test", "--affected", "--base", "nope", "--list", "--path", folder.url.path,
        ])
        #expect(badBase.status == 64)
        #expect(badBase.errorText.contains("git failed"))
    }
}
