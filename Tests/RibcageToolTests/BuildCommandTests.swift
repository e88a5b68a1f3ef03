import Foundation
import RibcageBuild
import RibcagePackage
import Testing

/// The built `ribcage build` on a package with a compile error, and on swift-argument-parser.
@Suite("ribcage build", .serialized)
struct BuildCommandTests {
    /// Core ← Broken ← App, and Other; Broken does not compile.
    static func makeBrokenPackage() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(name: "Broken", targets: [
                .target(name: "Core"),
                .target(name: "Broken", dependencies: ["Core"]),
                .executableTarget(name: "App", dependencies: ["Broken"]),
                .target(name: "Other"),
                .testTarget(name: "CoreTests", dependencies: ["Core"]),
            ])
            """, to: "Package.swift")
        try folder.write("public let core = 1\n", to: "Sources/Core/Core.swift")
        try folder.write(
            "import Core\n\npublic let broken: Int = core + missingValue\n", to: "Sources/Broken/Broken.swift"
        )
        try folder.write("import Broken\nprint(broken)\n", to: "Sources/App/main.swift")
        try folder.write("public let other = 3\n", to: "Sources/Other/Other.swift")
        try folder.write(
            "import Core\nimport Testing\n@Test func one() {}\n", to: "Tests/CoreTests/CoreTests.swift")
        return folder
    }

    static func ribcage(_ arguments: [String], in folder: URL) async throws -> ProcessResult {
        try await Shell.run(try await RibcageExecutableTests.ribcageExecutable().path, arguments, in: folder)
    }

    @Test("a compile error: file:line, the blocked dependents, the rest built, exit 2; then all up to date")
    func failure() async throws {
        let folder = try Self.makeBrokenPackage()
        let run = try await Self.ribcage(["build", "--timings"], in: folder.url)
        #expect(run.status == 2, "\(run.outputText)\n\(run.errorText)")
        // Each row: the module, its time, its status.
        let rows = Dictionary(
            run.outputText.split(separator: "\n").map { (String($0.prefix { $0 != " " }), String($0)) }
        ) { first, _ in first }
        #expect(rows["Core"]?.hasSuffix(" built") == true)
        #expect(rows["Broken"]?.hasSuffix(" FAILED") == true)
        #expect(rows["App"]?.hasSuffix(" blocked by Broken") == true)
        #expect(rows["Other"]?.hasSuffix(" built") == true)
        #expect(rows["CoreTests"] == nil, "test targets are built by `ribcage test`, not by default")
        #expect(run.outputText.contains("✘ Broken failed, blocking App"))
        #expect(
            run.outputText.contains(
                "Sources/Broken/Broken.swift:3:33: error: cannot find 'missingValue' in scope"),
            "\(run.outputText)")
        #expect(run.outputText.contains("Critical path: "))
        #expect(run.outputText.hasSuffix("2 built, 0 up to date, 1 failed, 1 blocked\n"))

        try folder.write(
            "import Core\n\npublic let broken: Int = core + 1\n", to: "Sources/Broken/Broken.swift")
        let fixed = try await Self.ribcage(["build", "--format", "json"], in: folder.url)
        #expect(fixed.status == 0, "\(fixed.outputText)\n\(fixed.errorText)")
        let report = try JSONDecoder().decode(BuildReport.self, from: fixed.standardOutput)
        #expect(report.modules.map(\.name) == ["Core", "Broken", "App", "Other"])
        #expect(report.modules.map(\.status) == [.upToDate, .built, .built, .upToDate])
        #expect(report.criticalPath.modules == ["Broken", "App"])

        let named = try await Self.ribcage(["build", "App"], in: folder.url)
        #expect(named.outputText.hasSuffix("0 built, 3 up to date, 0 failed\n"), "\(named.outputText)")
    }

    @Test("--affected builds the changed module and its dependents, and says why")
    func affected() async throws {
        let folder = try Self.makeBrokenPackage()
        try folder.write(
            "import Core\n\npublic let broken: Int = core + 1\n", to: "Sources/Broken/Broken.swift")
        for arguments in [
            ["init", "-q"], ["add", "."],
            ["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "-m", "x"],
        ] {
            let git = try await Shell.run("git", arguments, in: folder.url)
            try #require(git.succeeded, "\(git.errorText)")
        }
        try folder.write("public let core = 2\n", to: "Sources/Core/Core.swift")
        let run = try await Self.ribcage(["build", "--affected", "--format", "json"], in: folder.url)
        #expect(run.status == 0, "\(run.outputText)\n\(run.errorText)")
        let report = try JSONDecoder().decode(BuildReport.self, from: run.standardOutput)
        #expect(report.modules.map(\.name) == ["Core", "Broken", "App"])
        #expect(run.errorText.contains("App: depends on Broken"))
    }

    @Test("swift-argument-parser 1.8.2: its modules in dependency order, then all up to date")
    func argumentParser() async throws {
        let checkout = try await ThirdPartyPackage.argumentParser.checkout()
        let first = try await Self.ribcage(["build", "ArgumentParser", "--format", "json"], in: checkout)
        #expect(first.status == 0, "\(first.outputText)\n\(first.errorText)")
        let report = try JSONDecoder().decode(BuildReport.self, from: first.standardOutput)
        #expect(report.modules.map(\.name) == ["ArgumentParserToolInfo", "ArgumentParser"])
        #expect(report.modules.allSatisfy { $0.status != .failed })
        let again = try await Self.ribcage(["build", "ArgumentParser"], in: checkout)
        #expect(again.outputText.hasSuffix("0 built, 2 up to date, 0 failed\n"), "\(again.outputText)")
    }
}
