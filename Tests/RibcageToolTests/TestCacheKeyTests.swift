import ContentDigest
import Foundation
import RibcagePackage
import RibcageTesting
import Testing

/// The key of `ribcage test --cache`: each kind of input changes it, and nothing else does.
@Suite("Test cache key")
struct TestCacheKeyTests {
    /// Core ← Feature ← FeatureTests, and an unrelated Other; a resource in Core.
    static let package = DescribedPackage(
        name: "Keyed", path: "/keyed",
        targets: [
            .init(name: "Core", type: "library", path: "Sources/Core"),
            .init(name: "Feature", type: "library", path: "Sources/Feature", targetDependencies: ["Core"]),
            .init(name: "Other", type: "library", path: "Sources/Other"),
            .init(
                name: "FeatureTests", type: "test", path: "Tests/FeatureTests",
                targetDependencies: ["Feature"]),
        ])

    /// The package's files, on disk.
    static func makePackage() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("// swift-tools-version: 6.1\n", to: "Package.swift")
        try folder.write("public let core = 1\n", to: "Sources/Core/Core.swift")
        try folder.write("{\"greeting\": \"hello\"}\n", to: "Sources/Core/Resources/greeting.json")
        try folder.write("import Core\npublic let feature = core + 1\n", to: "Sources/Feature/Feature.swift")
        try folder.write("public let other = 3\n", to: "Sources/Other/Other.swift")
        try folder.write("import Testing\n@Test func two() {}\n", to: "Tests/FeatureTests/FeatureTests.swift")
        try folder.write("# Keyed\n", to: "README.md")
        return folder
    }

    struct Setting {
        var toolchain = "Swift version 6.3.1 (swift-6.3.1-RELEASE)\nTarget: x86_64-unknown-linux-gnu\n"
        var configuration = "debug"
        var flags = ["build --build-tests"]
        var environment: [String: String] = ["PATH": "/usr/bin"]
        var declared = ["RECORD_SNAPSHOTS"]
    }

    static func key(_ folder: TemporaryFolder, _ setting: Setting = Setting()) throws -> TestCacheKey {
        let inputs = try TestCacheInputs(
            root: folder.url, package: package, toolchain: setting.toolchain,
            configuration: setting.configuration, flags: setting.flags, environment: setting.environment,
            declaredVariables: setting.declared)
        let keys = try inputs.keys(for: ["FeatureTests"], withParts: true)
        return try #require(keys["FeatureTests"])
    }

    /// Applies `change` to a fresh package and returns what changed in the key.
    static func changes(
        _ change: (TemporaryFolder, inout Setting) throws -> Void
    ) throws -> [TestCacheKey.Change] {
        let folder = try makePackage()
        let before = try key(folder)
        var setting = Setting()
        try change(folder, &setting)
        let after = try key(folder, setting)
        let changes = after.changes(since: before)
        #expect((after.hash != before.hash) == !changes.isEmpty, "the hash changes exactly when a part does")
        return changes
    }

    static func names(_ changes: [TestCacheKey.Change]) -> [String] {
        changes.map { change in
            let sign =
                switch change.what {
                case .added: "+"
                case .removed: "-"
                case .changed: "~"
                }
            return "\(sign)\(change.part.kind.rawValue) \(change.part.name)"
        }
    }

    @Test("a byte of the test target's, a module's or a transitive module's source changes it")
    func sources() throws {
        #expect(
            Self.names(
                try Self.changes { folder, _ in
                    try folder.write(
                        "import Testing\n@Test func three() {}\n", to: "Tests/FeatureTests/FeatureTests.swift"
                    )
                })
                == ["~file Tests/FeatureTests/FeatureTests.swift"])
        #expect(
            Self.names(
                try Self.changes { folder, _ in
                    try folder.write(
                        "import Core\npublic let feature = core + 2\n", to: "Sources/Feature/Feature.swift")
                })
                == ["~file Sources/Feature/Feature.swift"])
        #expect(
            Self.names(
                try Self.changes { folder, _ in
                    try folder.write("public let core = 2\n", to: "Sources/Core/Core.swift")
                })
                == ["~file Sources/Core/Core.swift"])
    }

    @Test("a resource, an added file, a removed file and a renamed file change it")
    func filesComeAndGo() throws {
        #expect(
            Self.names(
                try Self.changes { folder, _ in
                    try folder.write("{\"greeting\": \"hi\"}\n", to: "Sources/Core/Resources/greeting.json")
                })
                == ["~file Sources/Core/Resources/greeting.json"])
        #expect(
            Self.names(
                try Self.changes { folder, _ in
                    try folder.write("extension Int {}\n", to: "Sources/Feature/More.swift")
                })
                == ["+file Sources/Feature/More.swift"])
        #expect(
            Self.names(
                try Self.changes { folder, _ in
                    try FileManager.default.removeItem(
                        at: folder.url.appendingPathComponent("Sources/Core/Resources/greeting.json"))
                }) == ["-file Sources/Core/Resources/greeting.json"])
        #expect(
            Self.names(
                try Self.changes { folder, _ in
                    try FileManager.default.moveItem(
                        at: folder.url.appendingPathComponent("Sources/Core/Core.swift"),
                        to: folder.url.appendingPathComponent("Sources/Core/Base.swift"))
                }) == ["+file Sources/Core/Base.swift", "-file Sources/Core/Core.swift"])
    }

    @Test("Package.swift, a Package@swift manifest and Package.resolved (appearing, then changing) change it")
    func manifests() throws {
        #expect(
            Self.names(
                try Self.changes { folder, _ in
                    try folder.write("// swift-tools-version: 6.2\n", to: "Package.swift")
                })
                == ["~manifest Package.swift"])
        #expect(
            Self.names(
                try Self.changes { folder, _ in
                    try folder.write("// swift-tools-version: 5.9\n", to: "Package@swift-5.9.swift")
                })
                == ["+manifest Package@swift-5.9.swift"])
        #expect(
            Self.names(
                try Self.changes { folder, _ in try folder.write("{\"pins\": []}\n", to: "Package.resolved") }
            )
                == ["~resolved Package.resolved"])
        let folder = try Self.makePackage()
        try folder.write("{\"pins\": [{\"version\": \"1.0.0\"}]}\n", to: "Package.resolved")
        let before = try Self.key(folder)
        try folder.write("{\"pins\": [{\"version\": \"1.0.1\"}]}\n", to: "Package.resolved")
        #expect(Self.names(try Self.key(folder).changes(since: before)) == ["~resolved Package.resolved"])
    }

    @Test("the toolchain, the configuration and the flags change it, and say how")
    func toolchainAndConfiguration() throws {
        let toolchain = try Self.changes { _, setting in
            setting.toolchain =
                "Swift version 6.3.2 (swift-6.3.2-RELEASE)\nTarget: x86_64-unknown-linux-gnu\n"
        }
        #expect(Self.names(toolchain) == ["~toolchain swift --version"])
        guard case .changed(let old) = toolchain.first?.what else {
            Issue.record("the toolchain part did not change")
            return
        }
        #expect(old.detail == "Swift version 6.3.1 (swift-6.3.1-RELEASE)")
        #expect(
            Self.names(try Self.changes { _, setting in setting.configuration = "release" })
                == ["~configuration configuration and flags"])
        #expect(
            Self.names(try Self.changes { _, setting in setting.flags.append("-Xswiftc -DEXTRA") })
                == ["~configuration configuration and flags"])
    }

    @Test("a declared variable changes it when set, set to empty, or changed; its value is never shown")
    func environment() throws {
        let set = try Self.changes { _, setting in setting.environment["RECORD_SNAPSHOTS"] = "1" }
        #expect(Self.names(set) == ["~environment RECORD_SNAPSHOTS"])
        #expect(set.first?.part.detail == nil)
        let folder = try Self.makePackage()
        var setting = Setting()
        setting.environment["RECORD_SNAPSHOTS"] = ""
        let empty = try Self.key(folder, setting)
        setting.environment["RECORD_SNAPSHOTS"] = "0"
        let zero = try Self.key(folder, setting)
        #expect(Set([try Self.key(folder).hash, empty.hash, zero.hash]).count == 3)
    }

    @Test("mtime, an unrelated module, an undeclared variable and a root file do not change it")
    func unrelated() throws {
        #expect(
            try Self.changes { folder, _ in
                let file = folder.url.appendingPathComponent("Sources/Core/Core.swift")
                try FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: file.path)
                // Rewriting the same bytes also bumps the mtime.
                try folder.write("public let core = 1\n", to: "Sources/Core/Core.swift")
            }.isEmpty)
        #expect(
            try Self.changes { folder, _ in
                try folder.write("public let other = 4\n", to: "Sources/Other/Other.swift")
            }.isEmpty)
        #expect(try Self.changes { _, setting in setting.environment["HOME"] = "/elsewhere" }.isEmpty)
        #expect(
            try Self.changes { folder, _ in try folder.write("# Keyed, again\n", to: "README.md") }.isEmpty)
    }

    @Test("two test targets with the same files have different keys")
    func targetName() throws {
        let folder = try Self.makePackage()
        var package = Self.package
        package.targets.append(
            .init(
                name: "FeatureTests2", type: "test", path: "Tests/FeatureTests",
                targetDependencies: ["Feature"]))
        let inputs = try TestCacheInputs(
            root: folder.url, package: package, toolchain: "swift", configuration: "debug", flags: [],
            environment: [:], declaredVariables: [])
        let keys = try inputs.keys(for: ["FeatureTests", "FeatureTests2"])
        #expect(keys["FeatureTests"]?.hash != keys["FeatureTests2"]?.hash)
        #expect(throws: RibcageError.self) { try inputs.keys(for: ["Nope"]) }
    }

    @Test(
        "the key is the recipe's Merkle tree: each target's name, files and dependencies' digests, in lines")
    func recipeLines() throws {
        let folder = try Self.makePackage()
        let inputs = try TestCacheInputs(
            root: folder.url, package: Self.package, toolchain: "swift", configuration: "debug", flags: [],
            environment: [:], declaredVariables: [])
        func line(_ kind: String, _ name: String, _ digest: String) -> String {
            "\(kind) \(name.utf8.count):\(name) \(digest)\n"
        }
        func file(_ path: String) throws -> String {
            line("file", path, SHA256.hex(try Data(contentsOf: folder.url.appendingPathComponent(path))))
        }
        let core = SHA256.hex(
            "target 4:Core\n" + (try file("Sources/Core/Core.swift"))
                + (try file("Sources/Core/Resources/greeting.json")))
        let feature = SHA256.hex(
            "target 7:Feature\n" + (try file("Sources/Feature/Feature.swift")) + line("depends", "Core", core)
        )
        let tests = SHA256.hex(
            "target 12:FeatureTests\n" + (try file("Tests/FeatureTests/FeatureTests.swift"))
                + line("depends", "Feature", feature))
        let shared = inputs.sharedParts.map { line($0.kind.rawValue, $0.name, $0.digest) }.joined()
        let expected = SHA256.hex(
            TestCacheKey.recipe + "\n" + shared + line("test-target", "FeatureTests", tests))
        #expect(try inputs.keys(for: ["FeatureTests"])["FeatureTests"]?.hash == expected)
        #expect(try inputs.sourcesDigest(ofTarget: "Feature") == feature)
    }

    @Test("a local dependency's files are one line in the tree of each target that uses its product")
    func recipeLocalPackageLine() throws {
        let folder = try Self.makePackage()
        try folder.write("public let shared = 1\n", to: "Shared/Sources/Shared/Shared.swift")
        var package = Self.package
        package.localDependencyFolders = ["shared": folder.url.appendingPathComponent("Shared").path]
        package.targets[0].dependencies.append(.init(name: "SharedKit", kind: .product(package: "shared")))
        let inputs = try TestCacheInputs(
            root: folder.url, package: package, toolchain: "swift", configuration: "debug", flags: [],
            environment: [:], declaredVariables: [])
        func line(_ kind: String, _ name: String, _ digest: String) -> String {
            "\(kind) \(name.utf8.count):\(name) \(digest)\n"
        }
        func file(_ path: String, as name: String? = nil) throws -> String {
            line(
                "file", name ?? path,
                SHA256.hex(try Data(contentsOf: folder.url.appendingPathComponent(path))))
        }
        let shared = SHA256.hex(
            try file("Shared/Sources/Shared/Shared.swift", as: "Sources/Shared/Shared.swift"))
        let core = SHA256.hex(
            "target 4:Core\n" + (try file("Sources/Core/Core.swift"))
                + (try file("Sources/Core/Resources/greeting.json")) + line("local-package", "Shared", shared)
        )
        #expect(try inputs.sourcesDigest(ofTarget: "Core") == core)
    }

    @Test("async callers get the same keys, computed off the cooperative pool")
    func keysOffThePool() async throws {
        let folder = try Self.makePackage()
        let inputs = try TestCacheInputs(
            root: folder.url, package: Self.package, toolchain: "swift", configuration: "debug", flags: [],
            environment: [:], declaredVariables: [])
        let offPool = try await inputs.keysOffThePool(for: ["FeatureTests"], withParts: true)
        #expect(offPool == (try inputs.keys(for: ["FeatureTests"], withParts: true)))
        await #expect(throws: RibcageError.self) { try await inputs.keysOffThePool(for: ["Nope"]) }
    }

    @Test("Project.swift.md's Test inputs table declares the variables")
    func declaredVariables() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            # P
            ## Test inputs
            | Variable | Why |
            |---|---|
            | `RECORD_SNAPSHOTS` | rewrites snapshots instead of comparing |
            | `NO_COLOR` | colours in rendered frames |
            ## Decisions
            | A | B |
            |---|---|
            | x | y |
            """, to: "Project.swift.md")
        #expect(
            try TestCacheInputs.declaredVariables(packageAt: folder.url) == ["RECORD_SNAPSHOTS", "NO_COLOR"])
    }
}
