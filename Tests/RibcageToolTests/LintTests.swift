import Foundation
import RibcageLint
import RibcagePackage
import Testing

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

    static let toolchain = Toolchain(modules: ["Swift", "Foundation", "Glibc"], compilerVersion: [6, 3])

    static func linter(sources: [String: [Linter.SourceFile]] = [:], extra: [DescribedPackage.Target] = [])
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
            sources: sources, toolchain: toolchain)
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
        let sources: [String: [Linter.SourceFile]] = [
            "Data": [
                .init(
                    path: "Modules/Data/Repo.swift",
                    text: "import Foundation\n// import Todo\nimport Domain\nimport Todo\n")
            ],
            "AddTodo": [
                .init(
                    path: "Modules/Features/AddTodo/A.swift",
                    text: "#if canImport(Domain)\nimport Foundation\n#endif\n")
            ],
            "Todo": [.init(path: "Modules/Features/Todo/T.swift", text: "import Domain\n")],
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

@Suite("Roles: what a module is for decides whether it is a product")
struct RoleRuleTests {
    @Test("each Role cell reads as one role, the older system library spelling as a C shim")
    func readsRoles() {
        #expect(ModuleRole(cell: "library") == .library)
        #expect(ModuleRole(cell: "executable kit") == .executable("kit"))
        #expect(ModuleRole(cell: "test support") == .testSupport)
        #expect(ModuleRole(cell: "C shim") == .cShim)
        #expect(ModuleRole(cell: "C shim (pkg-config libpng)") == .cShim)
        #expect(ModuleRole(cell: "system library (pkg-config libjpeg)") == .cShim)
        #expect(ModuleRole(cell: "framework") == nil)
        #expect(ModuleRole(cell: "executable") == nil, "an executable names its product")
        #expect(ModuleRole(cell: "C shim libpng") == nil, "a note goes in brackets")
    }

    @Test(
        "test support and C shims exported, a library or executable not exported, an unknown role: each an error"
    )
    func checksProducts() {
        let manifest = ProjectManifest(
            markdown: """
                ## Modules

                | Module | Path | Layer | Role | Dependencies | Test target |
                |---|---|---|---|---|---|
                | Kit | Modules/Kit | Core | library | — | KitTests |
                | KitTesting | Modules/TestSupport/KitTesting | Core | test support | Kit | — |
                | Fakes | Modules/TestSupport/Fakes | Core | test support | Kit | — |
                | CZ | Modules/Shims/CZ | Core | C shim (pkg-config zlib) | — | — |
                | Hidden | Modules/Hidden | Core | library | — | — |
                | Tool | Tools/Tool | Tools | executable kit | Kit | — |
                | Odd | Modules/Odd | Core | framework | — | — |
                """)
        let package = DescribedPackage(
            name: "Roles", path: "/roles",
            targets: [
                .init(name: "Kit", type: "library", path: "Modules/Kit"),
                .init(name: "KitTests", type: "test", path: "Tests/KitTests", targetDependencies: ["Kit"]),
                .init(
                    name: "KitTesting", type: "library", path: "Modules/TestSupport/KitTesting",
                    targetDependencies: ["Kit"]),
                .init(
                    name: "Fakes", type: "library", path: "Modules/TestSupport/Fakes",
                    targetDependencies: ["Kit"]),
                .init(name: "CZ", type: "system-target", path: "Modules/Shims/CZ"),
                .init(name: "Hidden", type: "library", path: "Modules/Hidden"),
                .init(name: "Tool", type: "executable", path: "Tools/Tool", targetDependencies: ["Kit"]),
                .init(name: "Odd", type: "library", path: "Modules/Odd"),
            ],
            products: [
                .init(name: "Kit", type: "library", targets: ["Kit"]),
                .init(name: "KitTesting", type: "library", targets: ["KitTesting"]),
                .init(name: "Everything", type: "library", targets: ["Kit", "Fakes"]),
                .init(name: "tool", type: "executable", targets: ["Tool"]),
            ])
        let linter = Linter(
            package: package, manifest: manifest, sources: [:], toolchain: LintRuleTests.toolchain)
        let messages = LintRuleTests.messages(linter, rule: "roles")
        #expect(
            messages.sorted() == [
                "'Fakes' is test support in Project.swift.md, so no product may export it, but Package.swift's library product 'Everything' does",
                "'Hidden' is a library in Project.swift.md, but Package.swift has no library product 'Hidden'",
                "'KitTesting' is test support in Project.swift.md, so no product may export it, but Package.swift's library product 'KitTesting' does",
                "'Odd': unknown role 'framework' (library, test support, C shim or executable NAME)",
                "'Tool' is executable kit in Project.swift.md, but Package.swift has no executable product 'kit' of it",
            ])
        #expect(linter.diagnostics().filter { $0.rule == "roles" }.allSatisfy { $0.severity == .error })
    }

    @Test("(h) a test target in the Untraced test targets table that the package does not have is an error")
    func untracedTable() {
        let manifest = ProjectManifest(
            markdown: """
                ## Untraced test targets

                | Test target | Why it runs without strace |
                |---|---|
                | `KitTests` | runs strace itself |
                | `GoneTests` | renamed since |
                """)
        let package = DescribedPackage(
            name: "Untraced", path: "/untraced",
            targets: [
                .init(name: "Kit", type: "library", path: "Sources/Kit"),
                .init(name: "KitTests", type: "test", path: "Tests/KitTests", targetDependencies: ["Kit"]),
            ])
        #expect(manifest.untracedTestTargets == ["KitTests", "GoneTests"], "backticks are ignored")
        let linter = Linter(
            package: package, manifest: manifest, sources: [:], toolchain: LintRuleTests.toolchain)
        #expect(
            LintRuleTests.messages(linter, rule: "untraced") == [
                "'GoneTests' is in the Untraced test targets table but is not a test target of the package"
            ])
    }

    @Test("(h) a test target in the Local-only test targets table that the package does not have is an error")
    func localOnlyTable() {
        let manifest = ProjectManifest(
            markdown: """
                ## Local-only test targets

                | Test target | Why it runs here |
                |---|---|
                | `KitTests` | its oracle is not in the worker image |
                | `GoneTests` | renamed since |
                """)
        let package = DescribedPackage(
            name: "Local", path: "/local",
            targets: [
                .init(name: "Kit", type: "library", path: "Sources/Kit"),
                .init(name: "KitTests", type: "test", path: "Tests/KitTests", targetDependencies: ["Kit"]),
            ])
        #expect(
            manifest.localOnlyTestTargets == [
                "KitTests": "its oracle is not in the worker image", "GoneTests": "renamed since",
            ], "backticks are ignored, the reason is kept")
        let linter = Linter(
            package: package, manifest: manifest, sources: [:], toolchain: LintRuleTests.toolchain)
        #expect(
            LintRuleTests.messages(linter, rule: "local-only") == [
                "'GoneTests' is in the Local-only test targets table but is not a test target of the package"
            ])
    }

    @Test(
        "in Ribcage's format a test target's inherited dependencies are not redundant; in a package without Project.swift.md they are"
    )
    func inheritedTestDependencies() {
        let package = DescribedPackage(
            name: "Inherit", path: "/inherit",
            targets: [
                .init(name: "Base", type: "library", path: "Sources/Base"),
                .init(name: "Kit", type: "library", path: "Sources/Kit", targetDependencies: ["Base"]),
                .init(name: "Spare", type: "library", path: "Sources/Spare"),
                .init(
                    name: "KitTests", type: "test", path: "Tests/KitTests",
                    targetDependencies: ["Kit", "Base", "Spare"]),
            ])
        let sources: [String: [Linter.SourceFile]] = [
            "Base": [.init(path: "Sources/Base/B.swift", text: "public let base = 1\n")],
            "Kit": [.init(path: "Sources/Kit/K.swift", text: "import Base\n")],
            "KitTests": [.init(path: "Tests/KitTests/T.swift", text: "import Kit\n")],
        ]
        let workspace = ProjectManifest(
            markdown: """
                ## Modules

                | Module | Path | Layer | Role | Dependencies | Test target |
                |---|---|---|---|---|---|
                | Base | Sources/Base | Core | library | — | — |
                | Kit | Sources/Kit | Core | library | Base | KitTests |
                | Spare | Sources/Spare | Core | library | — | — |
                """)
        let inRibcageFormat = Linter(
            package: package, manifest: workspace, sources: sources, toolchain: LintRuleTests.toolchain)
        #expect(
            LintRuleTests.messages(inRibcageFormat, rule: "redundant-dependency") == [
                "'KitTests' declares 'Spare' but never imports it"
            ], "Base comes with Kit; Spare is the test's own")
        let elsewhere = Linter(
            package: package, manifest: nil, sources: sources, toolchain: LintRuleTests.toolchain)
        #expect(
            LintRuleTests.messages(elsewhere, rule: "redundant-dependency") == [
                "'KitTests' declares 'Base' but never imports it",
                "'KitTests' declares 'Spare' but never imports it",
            ])
    }
}

@Suite("Import rules on any package")
struct ImportRuleTests {
    /// A toolchain as this machine's: Linux's SDK, Swift 6.3.
    static let toolchain = Toolchain(
        modules: ["Swift", "Foundation", "Glibc", "SwiftGlibc", "Dispatch", "XCTest", "Testing"],
        compilerVersion: [6, 3, 1], architecture: "x86_64")

    static func findings(
        _ files: [String: String], targets: [DescribedPackage.Target], traits: Set<String> = []
    ) -> [String] {
        var sources: [String: [Linter.SourceFile]] = [:]
        for target in targets {
            sources[target.name] = files.filter { $0.key.hasPrefix(target.path + "/") }.sorted {
                $0.key < $1.key
            }
            .map { Linter.SourceFile(path: $0.key, text: $0.value) }
        }
        var package = DescribedPackage(name: "P", path: "/p", targets: targets)
        package.enabledTraits = traits
        return Linter(package: package, manifest: nil, sources: sources, toolchain: toolchain).diagnostics()
            .map { "\($0.severity.rawValue) \($0.rule): \($0.message)" }
    }

    @Test("SDK modules of this and other platforms need no declaration, conditional or not")
    func platformModules() {
        let source = """
            #if canImport(Darwin)
            import Darwin
            #elseif canImport(Glibc)
            import Glibc
            #elseif canImport(ucrt)
            import ucrt
            #elseif canImport(WASILibc)
            import WASILibc
            import wasi_pthread
            #endif
            #if os(Windows)
            import WinSDK
            import CRT
            #endif
            #if canImport(Combine)
            import Combine
            import SwiftUI
            #endif
            import Foundation
            import Dispatch
            @preconcurrency import SwiftGlibc
            import System
            import Network
            """
        let targets: [DescribedPackage.Target] = [.init(name: "Core", type: "library", path: "Sources/Core")]
        #expect(Self.findings(["Sources/Core/Platform.swift": source], targets: targets).isEmpty)
    }

    @Test("PackagePlugin is the SDK of plugins, whose dependencies are the tools they run")
    func plugins() {
        let targets: [DescribedPackage.Target] = [
            .init(name: "tool", type: "executable", path: "Sources/tool"),
            .init(
                name: "GenerateDocs", type: "plugin", path: "Plugins/GenerateDocs",
                targetDependencies: ["tool"]),
        ]
        let files = [
            "Sources/tool/main.swift": "print(1)\n",
            "Plugins/GenerateDocs/Plugin.swift": "import Foundation\nimport PackagePlugin\n",
        ]
        #expect(Self.findings(files, targets: targets).isEmpty)
    }

    @Test("an import this platform does not compile is not checked; one it compiles is")
    func conditionalImports() {
        let source = """
            #if canImport(Network)
            import NIOTransportServices
            #endif
            #if os(macOS) || os(iOS)
            import AppleOnlyKit
            #endif
            #if ENABLE_MOCKING
            import Mocks
            #endif
            #if os(Linux)
            import CLinuxShim
            #endif
            #if canImport(OptionalKit)
            import OptionalKit
            #endif
            #if DEBUG
            import DebugKit
            #endif
            """
        let targets: [DescribedPackage.Target] = [
            .init(name: "Server", type: "library", path: "Sources/Server")
        ]
        #expect(
            Self.findings(["Sources/Server/S.swift": source], targets: targets) == [
                "error implicit-import: 'Server' imports 'CLinuxShim', which is not one of its declared dependencies",
                "error implicit-import: 'Server' imports 'DebugKit', which is not one of its declared dependencies",
            ])
    }

    @Test("a define whose condition holds, and an enabled trait, are set for #if")
    func definesAndTraits() {
        var target = DescribedPackage.Target(name: "FS", type: "library", path: "Sources/FS")
        target.defines = [
            .init(name: "ENABLE_MOCKING", condition: .init(configuration: "debug")),
            .init(name: "RELEASE_ONLY", condition: .init(configuration: "release")),
            .init(name: "MAC_ONLY", condition: .init(platforms: ["macos"])),
        ]
        let source = """
            #if ENABLE_MOCKING
            import Mocking
            #endif
            #if RELEASE_ONLY || MAC_ONLY
            import Never
            #endif
            #if ConfigurationSupport
            import Configuration
            #endif
            #if FullFoundation
            import Disabled
            #endif
            """
        #expect(
            Self.findings(["Sources/FS/F.swift": source], targets: [target], traits: ["ConfigurationSupport"])
                == [
                    "error implicit-import: 'FS' imports 'Mocking', which is not one of its declared dependencies",
                    "error implicit-import: 'FS' imports 'Configuration', which is not one of its declared dependencies",
                ])
    }

    @Test("every import form counts as a use of what it imports")
    func everyFormIsAUse() {
        let source = """
            public import A
            package import B
            internal import C
            private import D
            fileprivate import E
            @_spi(Foo) import F
            @_documentation(visibility: internal) @_exported import G
            @preconcurrency import H
            @_implementationOnly import I
            @_weakLinked import J
            @testable import K
            import struct L.Thing
            #if canImport(Darwin)
            import M
            #endif
            """
        let names = (UnicodeScalar("A").value...UnicodeScalar("M").value).compactMap(UnicodeScalar.init).map {
            String(Character($0))
        }
        let targets: [DescribedPackage.Target] =
            [.init(name: "User", type: "library", path: "Sources/User", targetDependencies: names)]
            + names.map { .init(name: $0, type: "library", path: "Sources/\($0)") }
        #expect(Self.findings(["Sources/User/U.swift": source], targets: targets).isEmpty)
        let undeclared: [DescribedPackage.Target] = [
            .init(name: "User", type: "library", path: "Sources/User")
        ]
        let found = Self.findings(["Sources/User/U.swift": source], targets: undeclared)
        #expect(found.count == 12, "every form but the one this platform does not compile: \(found)")
    }

    @Test("macros, executables and plugins are depended on without an import; snippets import at will")
    func neverImportedByDesign() {
        let targets: [DescribedPackage.Target] = [
            .init(name: "MacrosImpl", type: "macro", path: "Sources/MacrosImpl"),
            .init(name: "Lib", type: "library", path: "Sources/Lib", targetDependencies: ["MacrosImpl"]),
            .init(name: "cli", type: "executable", path: "Sources/cli", targetDependencies: ["Lib"]),
            .init(name: "CLITests", type: "test", path: "Tests/CLITests", targetDependencies: ["cli"]),
            .init(name: "Tour", type: "snippet", path: "Snippets", targetDependencies: ["Lib"]),
        ]
        let files = [
            "Sources/MacrosImpl/M.swift": "import Foundation\n",
            "Sources/Lib/Lib.swift":
                "@freestanding(expression) public macro m() = #externalMacro(module: \"MacrosImpl\", type: \"M\")\n",
            "Sources/cli/main.swift": "import Lib\n",
            "Tests/CLITests/T.swift": "import XCTest\n",
            "Snippets/Tour.swift": "print(1)\n",
        ]
        #expect(Self.findings(files, targets: targets).isEmpty)
    }

    @Test("an undeclared import names the declared dependency it arrives through")
    func transitivePath() {
        let targets: [DescribedPackage.Target] = [
            .init(name: "Base", type: "library", path: "Sources/Base"),
            .init(name: "Core", type: "library", path: "Sources/Core", targetDependencies: ["Base"]),
            .init(name: "App", type: "library", path: "Sources/App", targetDependencies: ["Core"]),
        ]
        let files = [
            "Sources/App/A.swift": "import Core\nimport Base\n", "Sources/Core/C.swift": "import Base\n",
        ]
        #expect(
            Self.findings(files, targets: targets) == [
                "error implicit-import: 'App' imports 'Base', which is not one of its declared dependencies (it is reached only through 'Core')"
            ])
    }
}

@Suite("The ribcage lint executable", .serialized)
struct LintExecutableTests {
    @Test("prints compiler-style errors and JSON, and exits 1 on errors")
    func fixture() async throws {
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
        let text = try await RibcageExecutableTests.ribcage(["lint", "--path", folder.url.path])
        #expect(text.status == 1)
        #expect(text.outputText.contains("Sources/Feature/Feature.swift:2: error: 'Feature' imports 'Base'"))
        #expect(text.outputText.hasSuffix("1 error, 0 warnings\n"))
        #expect(text.errorText.contains("no Project.swift.md here, so the manifest and layer checks are off"))
        let json = try await RibcageExecutableTests.ribcage([
            "lint", "--format", "json", "--path", folder.url.path,
        ])
        let diagnostics = try JSONDecoder().decode([Diagnostic].self, from: json.standardOutput)
        #expect(diagnostics.map(\.rule) == ["implicit-import"])
        #expect(diagnostics.first?.line == 2)
    }

    @Test(
        "a package that imports in every form, behind platform conditions, with a trait and a define, is clean"
    )
    func everyForm() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(
                name: "Forms",
                traits: [.default(enabledTraits: ["Extras"]), "Extras"],
                targets: [
                    .target(name: "Base"),
                    .target(name: "Extra"),
                    .target(name: "Mocks"),
                    .target(
                        name: "Forms",
                        dependencies: [
                            "Base",
                            .target(name: "Extra", condition: .when(traits: ["Extras"])),
                            .target(name: "Mocks", condition: .when(platforms: [.linux, .macOS])),
                        ],
                        swiftSettings: [.define("MOCKING", .when(configuration: .debug))]),
                    .testTarget(name: "FormsTests", dependencies: ["Forms", "Base"]),
                ])
            """, to: "Package.swift")
        for module in ["Base", "Extra", "Mocks"] {
            try folder.write(
                "public let \(module.lowercased()) = 1\n", to: "Sources/\(module)/\(module).swift")
        }
        try folder.write(
            """
            #if canImport(Darwin)
            import Darwin
            #elseif os(Windows)
            import ucrt
            import WinSDK
            #elseif canImport(Glibc)
            @preconcurrency import Glibc
            #endif
            #if canImport(Network)
            import Network
            import NIOTransportServices
            #endif
            public import Base
            #if Extras
            @_spi(Internal) @_documentation(visibility: internal) @_exported import Extra
            #endif
            #if MOCKING
            internal import Mocks
            #endif
            public let forms = base
            """, to: "Sources/Forms/Forms.swift")
        try folder.write(
            """
            @testable import Forms
            @_implementationOnly import Base
            import Testing
            @Test func value() { #expect(forms == 1) }
            """, to: "Tests/FormsTests/FormsTests.swift")
        let lint = try await RibcageExecutableTests.ribcage(["lint", "--path", folder.url.path])
        #expect(lint.succeeded, "\(lint.outputText)\(lint.errorText)")
        #expect(lint.outputText == "0 errors, 0 warnings\n")
    }

    @Test("a product's modules come from its package's manifest once the dependencies are checked out")
    func productModules() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(
                name: "Kit",
                products: [.library(name: "Kit", targets: ["KitCore", "KitExtras"])],
                targets: [.target(name: "KitCore"), .target(name: "KitExtras")])
            """, to: "Kit/Package.swift")
        try folder.write("public let core = 1\n", to: "Kit/Sources/KitCore/Core.swift")
        try folder.write("public let extras = 2\n", to: "Kit/Sources/KitExtras/Extras.swift")
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(
                name: "App",
                dependencies: [.package(path: "../Kit")],
                targets: [.target(name: "App", dependencies: [.product(name: "Kit", package: "Kit")])])
            """, to: "App/Package.swift")
        try folder.write("import KitCore\n", to: "App/Sources/App/App.swift")
        let app = folder.url.appendingPathComponent("App").path

        let unresolved = try await RibcageExecutableTests.ribcage(["lint", "--path", app])
        #expect(unresolved.errorText.contains("the dependencies are not checked out"))
        #expect(unresolved.outputText.hasSuffix("1 error, 1 warning\n"), "\(unresolved.outputText)")

        let resolve = try await Shell.run("swift", ["package", "resolve"], in: URL(fileURLWithPath: app))
        #expect(resolve.succeeded, "\(resolve.errorText)")
        let resolved = try await RibcageExecutableTests.ribcage(["lint", "--path", app])
        #expect(resolved.succeeded, "\(resolved.outputText)\(resolved.errorText)")
        #expect(resolved.outputText == "0 errors, 0 warnings\n")
    }

    @Test("when describe cannot run, the sources are found on disk, so imports are still judged")
    func dumpFallback() async throws {
        let folder = try PackageFixtures.unfinished()
        let lint = try await RibcageExecutableTests.ribcage(["lint", "--path", folder.url.path])
        #expect(lint.errorText.contains("dump-package"))
        #expect(
            lint.outputText == """
                Package.swift:11: warning: 'Loose' declares 'Base' but never imports it [redundant-dependency]
                0 errors, 1 warning

                """)
    }
}
