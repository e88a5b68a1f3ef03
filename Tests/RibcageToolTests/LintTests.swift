import Foundation
import RibcageTool
import Testing

@Suite("Import scanner")
struct ImportScannerTests {
    @Test("finds every form of import, with its line")
    func forms() {
        let source = """
            import Foundation
            @testable import Cart
            @_exported import Core
            import struct Net.Client
            #if canImport(FoundationNetworking)
                import FoundationNetworking
            #endif
            import Logging; import Metrics
            """
        let found = ImportScanner.references(in: source)
        #expect(
            found.map(\.module) == [
                "Foundation", "Cart", "Core", "Net", "FoundationNetworking", "FoundationNetworking",
                "Logging", "Metrics",
            ])
        #expect(found.map(\.line) == [1, 2, 3, 4, 5, 6, 8, 8])
        #expect(found[4].form == .canImport)
    }

    @Test("ignores imports in comments and every kind of string literal")
    func noFalsePositives() {
        let source = #"""
            // import LineComment
            /* import Block /* import Nested */ still a comment: import Inner */
            let a = "import InString"
            let b = """
                import InMultiline
                """
            let c = #"import InRaw "quoted" inside"#
            let d = "\(call("import InInterpolation")) and more"
            let e = "escaped \" import AfterEscape"
            let importance = 1  // an identifier that starts with "import"
            func f() { let x = importance }
            import Real
            """#
        #expect(ImportScanner.references(in: source).map(\.module) == ["Real"])
        #expect(ImportScanner.references(in: source).first?.line == 12)
    }
}

@Suite("Lint rules")
struct LintRuleTests {
    static let manifest = ProjectManifest(
        markdown: """
            ## Modules

            | Module | Path | Layer | Product | Dependencies | Test target |
            |---|---|---|---|---|---|
            | Core | Modules/Core | Core | library | — | — |
            | Domain | Modules/Domain | Domain | library | Core | — |
            | Data | Modules/Data | Data | library | Domain | — |
            | Todo | Modules/Features/Todo | Features | library | Domain, Data | — |
            | AddTodo | Modules/Features/AddTodo | Features | library | Domain | — |
            | Profile | Modules/Features/Profile | Features | library | Todo | — |
            | Ghost | Modules/Ghost | Core | library | — | — |

            ## Layers

            | Layer | May depend on |
            |---|---|
            | Core | Core |
            | Domain | Core |
            | Data | Domain, Core |
            | Features | Domain, Core |

            ## Feature edges

            | Parent | Child |
            |---|---|
            | Todo | AddTodo |
            """)

    static func linter(
        sources: [String: [(path: String, text: String)]] = [:], extra: [DescribedPackage.Target] = []
    )
        -> Linter
    {
        let targets: [DescribedPackage.Target] =
            [
                .init(name: "Core", type: "library", path: "Modules/Core", targetDependencies: ["Domain"]),
                .init(name: "Domain", type: "library", path: "Modules/Domain", targetDependencies: ["Core"]),
                .init(name: "Data", type: "library", path: "Modules/Data", targetDependencies: ["Domain"]),
                .init(
                    name: "Todo", type: "library", path: "Modules/Features/Todo",
                    targetDependencies: ["Domain", "Data"]),
                .init(
                    name: "AddTodo", type: "library", path: "Modules/Features/AddTodo",
                    targetDependencies: ["Domain"]),
                .init(
                    name: "Profile", type: "library", path: "Modules/Features/Profile",
                    targetDependencies: ["Todo"]),
                .init(name: "Stray", type: "library", path: "Modules/Stray"),
            ] + extra
        return Linter(
            package: DescribedPackage(name: "Fixture", path: "/fixture", targets: targets),
            manifest: Self.manifest,
            sources: sources)
    }

    static func messages(_ linter: Linter, rule: String) -> [String] {
        linter.diagnostics().filter { $0.rule == rule }.map(\.message)
    }

    @Test("(a) finds modules missing on either side and dependencies that disagree")
    func manifestAgreement() {
        let messages = Self.messages(Self.linter(), rule: "manifest")
        #expect(messages.contains("'Stray' is in Package.swift but not in the Modules table"))
        #expect(messages.contains("'Ghost' is in the Modules table but not in Package.swift"))
        #expect(messages.contains("'Core' dependencies disagree: missing Domain"))
    }

    @Test("(b) enforces the layer table and the parent→child exception")
    func layers() {
        let messages = Self.messages(Self.linter(), rule: "layers")
        #expect(messages.contains { $0.hasPrefix("'Core' (Core) depends on 'Domain' (Domain)") })
        #expect(
            messages.contains { $0.hasPrefix("'Todo' (Features) depends on 'Data' (Data)") },
            "features never import Data")
        #expect(messages.contains { $0.contains("feature 'Profile' depends on feature 'Todo'") })
        #expect(!messages.contains { $0.contains("'AddTodo'") })
        #expect(messages.count == 3)
    }

    @Test("(c) reports a cycle with its path")
    func cycle() {
        #expect(Self.messages(Self.linter(), rule: "cycle") == ["dependency cycle: Core → Domain → Core"])
    }

    @Test("(d) flags an undeclared import at its line; (e) warns about a dependency never imported")
    func imports() {
        let sources: [String: [(path: String, text: String)]] = [
            "Data": [
                ("Modules/Data/Repo.swift", "import Foundation\n// import Todo\nimport Domain\nimport Todo\n")
            ],
            "AddTodo": [
                ("Modules/Features/AddTodo/A.swift", "#if canImport(Domain)\nimport Foundation\n#endif\n")
            ],
            "Todo": [("Modules/Features/Todo/T.swift", "import Domain\n")],
        ]
        let diagnostics = Self.linter(sources: sources).diagnostics()
        let implicit = diagnostics.filter { $0.rule == "implicit-import" }
        #expect(
            implicit.map(\.description) == [
                "Modules/Data/Repo.swift:4: error: 'Data' imports 'Todo', which is not one of its declared dependencies [implicit-import]"
            ])
        let redundant = diagnostics.filter { $0.rule == "redundant-dependency" }.map(\.message)
        #expect(redundant == ["'Todo' declares 'Data' but never imports it"], "canImport counts as a use")
        #expect(
            diagnostics.filter { $0.rule == "redundant-dependency" }.allSatisfy { $0.severity == .warning })
    }
}

@Suite("The ribcage lint executable", .serialized)
struct LintExecutableTests {
    @Test("prints compiler-style errors and JSON, and exits 1 on errors")
    func fixture() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(name: "Fixture", targets: [
                .target(name: "Base"),
                .target(name: "Feature"),
            ])
            """, to: "Package.swift")
        try folder.write("public let base = 1\n", to: "Sources/Base/Base.swift")
        try folder.write(
            "import Foundation\nimport Base  // not declared\n", to: "Sources/Feature/Feature.swift")
        let text = try RibcageExecutableTests.ribcage(["lint", "--path", folder.url.path])
        #expect(text.status == 1)
        #expect(text.outputText.contains("Sources/Feature/Feature.swift:2: error: 'Feature' imports 'Base'"))
        #expect(text.outputText.hasSuffix("1 error, 0 warnings\n"))
        let json = try RibcageExecutableTests.ribcage(["lint", "--format", "json", "--path", folder.url.path])
        let diagnostics = try JSONDecoder().decode([Diagnostic].self, from: json.standardOutput)
        #expect(diagnostics.map(\.rule) == ["implicit-import"])
        #expect(diagnostics.first?.line == 2)
    }
}
