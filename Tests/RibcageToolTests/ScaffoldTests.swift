import Foundation
import RibcagePackage
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
            .module("ConstraintSolver", layer: .core),
            .module("Layout", layer: .core, dependencies: ["ConstraintSolver", logging]),
            .module("LayoutDSL", layer: .core, dependencies: ["Layout"]),
            .module("Images", layer: .core, dependencies: ["CJPEG", "CPNG"]),
            .module("TerminalCore", layer: .core, dependencies: ["Images"]),
            .module(
                "HeadlessUI", layer: .core, dependencies: ["Layout", "LayoutDSL", "Images", "TerminalCore", logging]),
            // Laid out as swift-format does once a row grows: the name on a line of its own.
            .module(
                "RIBsHeadlessUI", layer: .core,
                dependencies: ["RIBs", "HeadlessUI"]),
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
                let copied = [
                    "RIBs", "ConstraintSolver", "Layout", "LayoutDSL", "Images", "TerminalCore", "HeadlessUI",
                    "RIBsHeadlessUI",
                ]
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
            name: "Workspace", products: modules.map { .library(name: $0.name, targets: [$0.name]) },
            dependencies: [.package(url: "https://github.com/apple/swift-log", from: "1.16.2")],
            targets: modules.flatMap(\\.targets) + [
                .systemLibrary(name: "CJPEG", path: "Modules/Shims/CJPEG", pkgConfig: "libjpeg"),
                .systemLibrary(name: "CPNG", path: "Modules/Shims/CPNG", pkgConfig: "libpng"),
            ],
            swiftLanguageModes: [.v6])

        """

    static let project = """
        # Project.swift.md

        ## Modules

        | Module | Path | Layer | Product | Dependencies | Test target |
        |--------|------|-------|---------|--------------|-------------|
        | RIBs | Modules/RIBs | Core | library | — | — |
        | ConstraintSolver | Modules/ConstraintSolver | Core | library | — | — |
        | Layout | Modules/Layout | Core | library | ConstraintSolver, Logging (swift-log) | — |
        | LayoutDSL | Modules/LayoutDSL | Core | library | Layout | — |
        | Images | Modules/Images | Core | library | CJPEG, CPNG | — |
        | TerminalCore | Modules/TerminalCore | Core | library | Images | — |
        | HeadlessUI | Modules/HeadlessUI | Core | library | Layout, LayoutDSL, Images, TerminalCore, Logging (swift-log) | — |
        | CJPEG | Modules/Shims/CJPEG | Core | C shim (pkg-config libjpeg) | — | — |
        | CPNG | Modules/Shims/CPNG | Core | C shim (pkg-config libpng) | — | — |
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
            at: folder.url.appendingPathComponent("Modules/Shims"), withIntermediateDirectories: true)
        for module in [
            "RIBs", "ConstraintSolver", "Layout", "LayoutDSL", "Images", "TerminalCore", "HeadlessUI",
            "RIBsHeadlessUI", "Shims/CJPEG", "Shims/CPNG",
        ] {
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
        "a RIB with a HeadlessUI view controller, a viewless child RIB with --parent, and a module, scaffolded in a row with no commit between, build and pass their tests"
    )
    func scaffoldBuildsAndPasses() async throws {
        let folder = try await Self.workspace()
        let path = folder.url.path
        let sample = try await RibcageExecutableTests.ribcage(["new", "rib", "Sample", "--path", path])
        #expect(sample.succeeded, "\(sample.errorText)")
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

    @Test("refuses bad and taken names, a bad layer and parent, with the documented exit codes")
    func refusals() async throws {
        let folder = try await Self.workspace()
        let path = folder.url.path
        let cases: [([String], Int32, String)] = [
            (["rib", "RIBs"], 5, "'RIBs' is already a target or product of this workspace"),
            (["rib", "Foundation"], 5, "SDK"),
            (["rib", "Testing"], 5, "SDK"),
            (["rib", "Logging"], 5, "swift-log"),
            (["rib", "Self"], 64, "Swift keyword"),
            (["rib", "Any"], 64, "Swift keyword"),
            (["rib", "lowercase"], 64, "UpperCamelCase"),
            (["module", "Thing", "--layer", "features"], 64, "--layer"),
            (["rib", "Orphan", "--parent", "Nope"], 6, "the parent 'Nope' is not a feature"),
            (["rib", "Orphan", "--parent", "RIBs"], 6, "the parent 'RIBs' is not a feature"),
        ]
        for (arguments, status, message) in cases {
            let result = try await RibcageExecutableTests.ribcage(["new"] + arguments + ["--path", path])
            #expect(result.status == status, "\(arguments): \(result.errorText)")
            #expect(result.errorText.contains(message), "\(arguments): \(result.errorText)")
        }
        let status = try await Shell.run("git", ["status", "--porcelain"], in: folder.url)
        #expect(status.outputText.isEmpty, "a refusal writes nothing: \(status.outputText)")
    }

    @Test(
        "refuses manifests with someone else's uncommitted changes unless --allow-dirty; its own never block")
    func uncommittedChanges() async throws {
        let folder = try await Self.workspace()
        let path = folder.url.path
        let first = try await RibcageExecutableTests.ribcage([
            "new", "module", "First", "--layer", "core", "--path", path,
        ])
        #expect(first.succeeded, "\(first.errorText)")
        let second = try await RibcageExecutableTests.ribcage([
            "new", "module", "Second", "--layer", "core", "--path", path,
        ])
        #expect(second.succeeded, "the tool's own changes do not block: \(second.errorText)")

        let manifest = try String(
            contentsOf: folder.url.appendingPathComponent("Package.swift"), encoding: .utf8)
        try folder.write(manifest + "// an edit of mine\n", to: "Package.swift")
        let dirty = try await RibcageExecutableTests.ribcage(["new", "rib", "Fresh", "--path", path])
        #expect(dirty.status == 6)
        #expect(dirty.errorText.contains("Package.swift has uncommitted changes that ribcage did not make"))
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.url.appendingPathComponent("Modules/Features/Fresh").path))
        let allowed = try await RibcageExecutableTests.ribcage([
            "new", "rib", "Fresh", "--allow-dirty", "--path", path,
        ])
        #expect(allowed.succeeded, "\(allowed.errorText)")
        let edited = try String(
            contentsOf: folder.url.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(edited.contains("// an edit of mine"), "the person's edit is kept")
        #expect(edited.contains(#".feature("Fresh""#))
    }
}
