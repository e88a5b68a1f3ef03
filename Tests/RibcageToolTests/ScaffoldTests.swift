import Foundation
import RibcageTool
import Testing

/// Scaffolds into a small workspace laid out like Ribcage's (a `modules` table in Package.swift,
/// Project.swift.md, and the real RIBs sources), then builds it and runs the generated tests.
@Suite("ribcage new", .serialized)
struct ScaffoldTests {
    static let manifest = """
        // swift-tools-version: 6.1
        import PackageDescription

        let logging = Target.Dependency.product(name: "Logging", package: "swift-log")

        let modules: [Module] = [
            .module("RIBs", layer: .core),
            .module("Layout", layer: .core, dependencies: [logging]),
            .module("HeadlessUI", layer: .core, dependencies: ["Layout", logging]),
            .module("RIBsHeadlessUI", layer: .core, dependencies: ["RIBs", "HeadlessUI"]),
        ]

        struct Module {
            enum Layer { case core, domain, data, feature }
            var name: String
            var layer: Layer
            var dependencies: [Target.Dependency] = []
            var testDependencies: [Target.Dependency] = []
            var hasTests = true

            /// The modules copied from Ribcage come without their tests.
            static func module(_ name: String, layer: Layer, dependencies: [Target.Dependency] = []) -> Module {
                let copied = ["RIBs", "Layout", "HeadlessUI", "RIBsHeadlessUI"]
                return Module(name: name, layer: layer, dependencies: dependencies, hasTests: !copied.contains(name))
            }
            static func feature(
                _ name: String, dependencies: [Target.Dependency] = [], testDependencies: [Target.Dependency] = []
            ) -> Module {
                Module(name: name, layer: .feature, dependencies: dependencies, testDependencies: testDependencies)
            }
            var path: String { layer == .feature ? "Modules/Features/\\(name)" : "Modules/\\(name)" }
            var targets: [Target] {
                [.target(name: name, dependencies: dependencies, path: path)]
                    + (hasTests
                        ? [.testTarget(name: "\\(name)Tests", dependencies: [.target(name: name)] + testDependencies,
                            path: "Tests/\\(name)Tests")] : [])
            }
        }

        let package = Package(
            name: "Workspace", products: [],
            dependencies: [.package(url: "https://github.com/apple/swift-log", from: "1.16.2")],
            targets: modules.flatMap(\\.targets), swiftLanguageModes: [.v6])

        """

    static let project = """
        # Project.swift.md

        ## Modules

        | Module | Path | Layer | Product | Dependencies | Test target |
        |--------|------|-------|---------|--------------|-------------|
        | RIBs | Modules/RIBs | Core | library | — | — |
        | Layout | Modules/Layout | Core | library | Logging (swift-log) | — |
        | HeadlessUI | Modules/HeadlessUI | Core | library | Layout, Logging (swift-log) | — |
        | RIBsHeadlessUI | Modules/RIBsHeadlessUI | Core | library | RIBs, HeadlessUI | — |

        ## Layers

        | Layer | May depend on |
        |-------|---------------|
        | Core | Core |
        | Domain | Core |
        | Data | Domain, Core |
        | Features | Domain, Core |

        ## Feature edges

        | Parent | Child |
        |--------|-------|

        """

    static func workspace() async throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(manifest, to: "Package.swift")
        try folder.write(project, to: "Project.swift.md")
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("Modules"), withIntermediateDirectories: true)
        for module in ["RIBs", "Layout", "HeadlessUI", "RIBsHeadlessUI"] {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Modules/\(module)").standardizedFileURL
            try FileManager.default.copyItem(
                at: source, to: folder.url.appendingPathComponent("Modules/\(module)"))
        }
        try await commit(folder, "start")
        return folder
    }

    static func commit(_ folder: TemporaryFolder, _ message: String) async throws {
        for arguments in [["init", "-q"], ["add", "."], ["commit", "-qm", message]] {
            _ = try await Shell.run(
                "git", ["-c", "user.name=t", "-c", "user.email=t@t", "-C", folder.url.path] + arguments)
        }
    }

    @Test(
        "a RIB with a HeadlessUI view controller, a viewless child RIB with --parent, and a module build and pass their tests with no hand edits"
    )
    func scaffoldBuildsAndPasses() async throws {
        let folder = try await Self.workspace()
        let path = folder.url.path
        let sample = try await RibcageExecutableTests.ribcage(["new", "rib", "Sample", "--path", path])
        #expect(sample.succeeded, "\(sample.errorText)")
        try await Self.commit(folder, "sample")
        let child = try await RibcageExecutableTests.ribcage([
            "new", "rib", "Child", "--viewless", "--parent", "Sample", "--path", path,
        ])
        #expect(child.succeeded, "\(child.errorText)")
        #expect(child.outputText.contains("created Modules/Features/Sample/SampleComponent+Child.swift"))
        let sampleViewController = try String(
            contentsOf: folder.url.appendingPathComponent(
                "Modules/Features/Sample/SampleViewController.swift"),
            encoding: .utf8)
        #expect(
            sampleViewController.contains(
                "final class SampleViewController: ViewController, SamplePresentable"))
        try await Self.commit(folder, "child")
        let money = try await RibcageExecutableTests.ribcage([
            "new", "module", "Money", "--layer", "domain", "--path", path,
        ])
        #expect(money.succeeded, "\(money.errorText)")

        let project = try String(
            contentsOf: folder.url.appendingPathComponent("Project.swift.md"), encoding: .utf8)
        #expect(project.contains("| Sample | Child |"))
        #expect(project.contains("| Money | Modules/Money | Domain | library | — | MoneyTests |"))

        let test = try await Shell.run("swift", ["test"], in: folder.url)
        #expect(
            test.succeeded,
            "the scaffold must build and pass:\n\(test.outputText.suffix(3_000))\(test.errorText.suffix(3_000))"
        )
        #expect(test.outputText.contains("Test run with 5 tests"))

        let lint = try await RibcageExecutableTests.ribcage(["lint", "--path", path])
        #expect(lint.succeeded, "\(lint.outputText)")
    }

    @Test("refuses a taken name, a bad name, a bad layer and a dirty manifest, with documented exit codes")
    func refusals() async throws {
        let folder = try await Self.workspace()
        let path = folder.url.path
        #expect(try await RibcageExecutableTests.ribcage(["new", "rib", "RIBs", "--path", path]).status == 5)
        #expect(
            try await RibcageExecutableTests.ribcage(["new", "rib", "lowercase", "--path", path]).status == 6)
        #expect(
            try await RibcageExecutableTests.ribcage([
                "new", "module", "Thing", "--layer", "features", "--path", path,
            ]).status == 6)
        #expect(
            try await RibcageExecutableTests.ribcage([
                "new", "rib", "Orphan", "--parent", "Nope", "--path", path,
            ])
            .status == 6)
        try folder.write(Self.manifest + "// an uncommitted edit\n", to: "Package.swift")
        let dirty = try await RibcageExecutableTests.ribcage(["new", "rib", "Fresh", "--path", path])
        #expect(dirty.status == 6)
        #expect(dirty.errorText.contains("uncommitted changes"))
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.url.appendingPathComponent("Modules/Features/Fresh").path))
    }
}
