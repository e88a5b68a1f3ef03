import Foundation
import RibcagePackage
import RibcageTesting
import Testing

/// `ribcage test --retry`, `ribcage flaky` and the quarantine, on a generated package whose
/// tests flake on purpose: XCTest and Swift Testing side by side in one `swift test`.
@Suite("Flaky tests, retried and quarantined", .serialized)
struct FlakyEndToEndTests {
    /// `FlipTests`: an XCTest method and one argument of a parameterized Swift Testing test that
    /// fail on every other run (a counter file each), a test that always fails, steady ones.
    /// `CrashTests`: a test that crashes its process while `FLIP_CRASH` is set.
    static func makePackage() async throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(name: "Flip", targets: [
                .target(name: "Flip"),
                .testTarget(name: "FlipTests", dependencies: ["Flip"]),
                .testTarget(name: "CrashTests", dependencies: ["Flip"]),
            ])
            """, to: "Package.swift")
        try folder.write("public let answer = 42\n", to: "Sources/Flip/Flip.swift")
        try folder.write(
            """
            import Flip
            import Foundation
            import Testing
            import XCTest

            /// Passes on every other call, counted in a file beside this source (none yet: 0).
            func passesThisTime(_ counter: String) throws -> Bool {
                let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                    .appendingPathComponent(".\\(counter).count")
                let count =
                    FileManager.default.fileExists(atPath: file.path)
                    ? Int(try String(contentsOf: file, encoding: .utf8)) ?? 0 : 0
                try String(count + 1).write(to: file, atomically: true, encoding: .utf8)
                return count % 2 == 1
            }

            final class Steady: XCTestCase {
                func testPasses() { XCTAssertEqual(answer, 42) }
                func testAlwaysFails() { XCTAssertEqual(answer, 41, "never 41") }
            }

            final class Flips: XCTestCase {
                func testEveryOtherRun() throws { XCTAssertTrue(try passesThisTime("xctest"), "flipped") }
            }

            @Test(arguments: [1, 2, 3]) func flakesForTwo(value: Int) throws {
                #expect(try value != 2 || passesThisTime("swift-testing"))
            }

            @Test func steady() { #expect(answer == 42) }
            """, to: "Tests/FlipTests/FlipTests.swift")
        try folder.write(
            """
            import Flip
            import Foundation
            import Testing

            @Test func crashes() {
                if ProcessInfo.processInfo.environment["FLIP_CRASH"] != nil { fatalError("crashed on purpose") }
                #expect(answer == 42)
            }

            @Test func fine() { #expect(answer == 42) }
            """, to: "Tests/CrashTests/CrashTests.swift")
        try folder.write("# Flip\n\nA package whose tests flake on purpose.\n", to: "Project.swift.md")
        try folder.write(".build/\n*.count\n", to: ".gitignore")
        try await PackageFixtures.commitEverything(in: folder.url, message: "Flip")
        return folder
    }

    struct Run {
        var status: Int32
        var output: String
        var errors: String

        var closingLine: String { output.split(separator: "\n").last.map(String.init) ?? "" }
        func row(_ testTarget: String) -> String {
            output.split(separator: "\n").first { $0.hasPrefix(testTarget + " ") }.map(String.init) ?? ""
        }
    }

    static func ribcage(_ arguments: [String], in folder: URL, crash: Bool = false) async throws -> Run {
        let result = try await Shell.run(
            try await RibcageExecutableTests.ribcageExecutable().path, arguments, in: folder,
            environment: [
                "FLIP_CRASH": crash ? "1" : nil,
                "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
            ])
        return Run(status: result.status, output: result.outputText, errors: result.errorText)
    }

    @Test(
        "retries find the flaky tests, the log lists them, the quarantine mutes and skips in every path, JUnit validates"
    )
    func retriesAndQuarantine() async throws {
        let folder = try await Self.makePackage()
        let package = folder.url

        // Each flaky test fails once and passes on its retry; the broken one fails three times.
        let first = try await Self.ribcage(
            ["test", "--retry", "2", "--junit-output", "junit.xml", "--reports-directory", "reports"],
            in: package)
        #expect(first.status == 1, "\(first.output)\(first.errors)")
        #expect(first.row("FlipTests").hasSuffix("(2 flaky)"), "\(first.output)")
        #expect(first.closingLine == "4 passed, 1 failed, 2 flaky, 0 skipped", "\(first.output)")
        #expect(
            first.output.contains(
                "Flaky (failed, then passed on a retry):\n  ~ FlipTests.Flips/testEveryOtherRun"))
        #expect(first.output.contains("  ~ FlipTests/flakesForTwo(value:)"))
        #expect(first.output.contains("  ✘ FlipTests.Steady/testAlwaysFails"))
        #expect(first.errors.contains("Retrying 3 failed tests (round 1 of 2)"))
        #expect(first.errors.contains("Retrying 1 failed test (round 2 of 2)"))
        let junit = try String(contentsOf: package.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.components(separatedBy: "<rerunFailure").count == 3)
        #expect(junit.components(separatedBy: "<flakyFailure").count == 3)
        if Shell.isOnPath("xmllint") {
            let schema = try await JUnitSchema.fetch(into: folder.url.appendingPathComponent("schema"))
            let check = try await Shell.run(
                "xmllint",
                ["--noout", "--schema", schema.path, package.appendingPathComponent("junit.xml").path])
            #expect(check.succeeded, "\(check.errorText)")
        }

        // The log has them, for people and for scripts.
        let listed = try await Self.ribcage(["flaky", "--format", "json"], in: package)
        let flaky = try JSONDecoder().decode([Listed].self, from: Data(listed.output.utf8))
        #expect(
            Set(flaky.map(\.test)) == ["FlipTests.Flips/testEveryOtherRun", "FlipTests/flakesForTwo(value:)"])
        #expect(flaky.allSatisfy { $0.failed == 1 && $0.passed == 1 && $0.quarantine == nil })

        // --no-flaky fails a run whose only failures were flaky: mute the broken test first.
        let mute = try await Self.ribcage(
            [
                "flaky", "--quarantine", "FlipTests.Steady/testAlwaysFails", "--mode", "mute", "--reason",
                "never 41 (issue 7)",
            ], in: package)
        #expect(mute.status == 0, "\(mute.errors)")
        let skip = try await Self.ribcage(
            ["flaky", "--quarantine", "CrashTests/crashes()", "--mode", "skip"], in: package)
        #expect(skip.status == 0, "\(skip.errors)")
        let ghost = try await Self.ribcage(["flaky", "--quarantine", "FlipTests/ghost()"], in: package)
        #expect(ghost.status != 0)
        #expect(ghost.errors.contains("FlipTests/ghost() is not a test of this package"))
        let manifest = try String(
            contentsOf: package.appendingPathComponent("Project.swift.md"), encoding: .utf8)
        #expect(manifest.contains("| `FlipTests.Steady/testAlwaysFails` | mute | never 41 (issue 7) |"))
        let lint = try await Self.ribcage(["lint"], in: package)
        #expect(!lint.output.contains("[quarantine]"), "\(lint.output)")

        // Muted and skipped, with the crash on: the skipped test never starts, so nothing crashes.
        let quarantined = try await Self.ribcage(
            ["test", "--retry", "1", "--skip-build"], in: package, crash: true)
        #expect(quarantined.status == 0, "\(quarantined.output)\(quarantined.errors)")
        #expect(quarantined.closingLine == "3 passed, 0 failed, 2 flaky, 1 muted, 1 skipped (1 quarantined)")
        #expect(quarantined.row("CrashTests").hasSuffix("(1 skipped by quarantine)"))
        let strict = try await Self.ribcage(
            ["test", "--retry", "1", "--skip-build", "--no-flaky"], in: package)
        #expect(strict.status == 1)
        #expect(strict.errors.contains("--no-flaky fails the run"))

        // The sharded path applies it too; --no-quarantine lifts it, and the crash is a crash.
        let sharded = try await Self.ribcage(
            ["test", "CrashTests", "--shard", "1/1", "--skip-build"], in: package, crash: true)
        #expect(sharded.status == 0, "\(sharded.output)\(sharded.errors)")
        #expect(sharded.closingLine == "1 passed, 0 failed, 1 skipped (1 quarantined)")
        let lifted = try await Self.ribcage(
            ["test", "CrashTests", "--retry", "1", "--skip-build", "--no-quarantine"], in: package,
            crash: true)
        #expect(lifted.status == 1)
        #expect(lifted.output.contains("✘ CrashTests (test run)"), "\(lifted.output)")
        #expect(!lifted.errors.contains("Retrying"), "a crashed suite has no per-test results to retry")

        // The affected path: an edit to CrashTests selects it, and the quarantine still holds.
        // (An uncommitted Project.swift.md would select every suite: commit the quarantine first.)
        try await PackageFixtures.commitEverything(in: package, message: "Quarantine")
        let crashTests = package.appendingPathComponent("Tests/CrashTests/CrashTests.swift")
        try Data((try String(contentsOf: crashTests, encoding: .utf8) + "// edited\n").utf8).write(
            to: crashTests)
        let affected = try await Self.ribcage(
            ["test", "--affected", "--skip-build"], in: package, crash: true)
        #expect(affected.status == 0, "\(affected.output)\(affected.errors)")
        #expect(affected.row("CrashTests").hasSuffix("(1 skipped by quarantine)"), "\(affected.output)")
        #expect(affected.row("FlipTests").isEmpty, "only the edited suite is affected")

        // The cached path: a suite the quarantine cut short is never stored as green.
        if try await TestRunner.canTraceInputs() {
            for _ in 1...2 {
                let cached = try await Self.ribcage(
                    ["test", "CrashTests", "--cache", "--skip-build"], in: package)
                #expect(cached.status == 0, "\(cached.output)\(cached.errors)")
                #expect(!cached.output.contains("cached: green"), "\(cached.output)")
                #expect(cached.closingLine.hasPrefix("1 passed, 0 failed, 1 skipped (1 quarantined)"))
            }
        }
    }

    struct Listed: Decodable {
        var test: String
        var failed: Int
        var passed: Int
        var quarantine: String?
    }
}
