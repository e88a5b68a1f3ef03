import Foundation
import RibcagePackage
import Testing

/// Runs the real, built `ribcage` executable against a fixture package in a temporary folder.
@Suite("The ribcage executable", .serialized)
struct RibcageExecutableTests {
    /// The `ribcage` binary that `swift build --build-tests` put next to this test bundle.
    static func ribcageExecutable() async throws -> URL {
        let testBinary = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let candidate = testBinary.deletingLastPathComponent().appendingPathComponent("ribcage")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw FixtureError(
                "ribcage is not built next to the tests at \(candidate.path); run `swift build` first")
        }
        return candidate
    }

    struct FixtureError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// A package with a passing module (`Good`, Swift Testing and XCTest) and a failing one
    /// (`Bad`).
    static func makeFixture() async throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(name: "Fixture", targets: [
                .target(name: "Good"),
                .target(name: "Bad"),
                .target(name: "Untested"),
                .testTarget(name: "GoodTests", dependencies: ["Good"]),
                .testTarget(name: "BadTests", dependencies: ["Bad"]),
            ])
            """, to: "Package.swift")
        try folder.write("public func two() -> Int { 2 }\n", to: "Sources/Good/Good.swift")
        try folder.write("public func three() -> Int { 4 }\n", to: "Sources/Bad/Bad.swift")
        try folder.write("public let nothing = 0\n", to: "Sources/Untested/Untested.swift")
        try folder.write(
            """
            import Good
            import Testing
            @Suite struct GoodSuite {
                @Test func adds() { #expect(two() + two() == 4) }
                @Test func doubles() { #expect(two() * 2 == 4) }
                @Test(.disabled("shown as skipped")) func later() {}
            }
            """, to: "Tests/GoodTests/GoodSuite.swift")
        try folder.write(
            """
            import Good
            import XCTest
            final class GoodCase: XCTestCase {
                func testTwo() { XCTAssertEqual(two(), 2) }
            }
            """, to: "Tests/GoodTests/GoodCase.swift")
        try folder.write(
            """
            import Bad
            import Testing
            @Suite struct BadSuite {
                @Test func three() { #expect(Bad.three() == 3) }
                @Test func positive() { #expect(Bad.three() > 0) }
            }
            """, to: "Tests/BadTests/BadSuite.swift")
        try folder.write(
            """
            import Bad
            import XCTest
            final class BadCase: XCTestCase { func testThree() { XCTAssertEqual(three(), 3, "three is three") } }
            """, to: "Tests/BadTests/BadCase.swift")
        return folder
    }

    static func ribcage(_ arguments: [String]) async throws -> ProcessResult {
        try await Shell.run(try await ribcageExecutable().path, arguments)
    }

    @Test("lists, runs and totals a fixture package's suites")
    func runsFixture() async throws {
        let fixture = try await Self.makeFixture()
        let path = fixture.url.path

        let listing = try await Self.ribcage(["test", "--list", "--path", path])
        #expect(listing.succeeded)
        #expect(
            listing.outputText == """
                Test target  Tests
                BadTests     Bad
                GoodTests    Good

                No test target depends on: Untested

                """)

        let all = try await Self.ribcage(["test", "--path", path])
        #expect(all.status == 1, "a failing test must fail the run")
        let lines = all.outputText.split(separator: "\n").map(String.init)
        let rows = lines.map { $0.split(separator: " ").map(String.init) }
        #expect(rows.contains { $0.count == 6 && Array($0.prefix(5)) == ["BadTests", "3", "1", "2", "0"] })
        #expect(rows.contains { $0.count == 6 && Array($0.prefix(5)) == ["GoodTests", "3", "3", "0", "1"] })
        // Each failure with its message, file and line, from both test libraries.
        #expect(lines.contains("  ✘ BadTests.BadSuite/three()"))
        #expect(
            lines.contains(
                "      Tests/BadTests/BadSuite.swift:4: Expectation failed: (Bad.three() → 4) == 3"))
        #expect(lines.contains("  ✘ BadTests.BadCase/testThree"))
        #expect(
            lines.contains(
                #"      Tests/BadTests/BadCase.swift:3: XCTAssertEqual failed: ("4") is not equal to ("3") - three is three"#
            ))
        let log = try #require(lines.first { $0.hasPrefix("Full log: ") }.map { String($0.dropFirst(10)) })
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("BadCase.testThree"))
        #expect(lines.last == "4 passed, 2 failed, 1 skipped")

        let good = try await Self.ribcage(["test", "Good", "--path", path, "--skip-build"])
        #expect(good.succeeded, "\(good.outputText)\(good.errorText)")
        #expect(good.outputText.split(separator: "\n").last == "3 passed, 0 failed, 1 skipped")
        #expect(!good.outputText.contains("BadTests"))

        let unknown = try await Self.ribcage(["test", "Nope", "--path", path, "--skip-build"])
        #expect(unknown.status == 64)
        #expect(
            unknown.errorText.contains(
                "Unknown module 'Nope'. Known modules: Bad, BadTests, Good, GoodTests, Untested."))
    }

    @Test("a test process that crashes is pinned on its test target, and the others' results stand")
    func crash() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(name: "Crashy", targets: [
                .target(name: "Calm"), .target(name: "Crashy"),
                .testTarget(name: "CalmTests", dependencies: ["Calm"]),
                .testTarget(name: "CrashyTests", dependencies: ["Crashy"]),
            ])
            """, to: "Package.swift")
        try folder.write("public let calm = 1\n", to: "Sources/Calm/Calm.swift")
        try folder.write(
            "public func crash() -> Never { fatalError(\"on purpose\") }\n", to: "Sources/Crashy/Crashy.swift"
        )
        try folder.write(
            "import Calm\nimport Testing\n@Test func one() { #expect(calm == 1) }\n",
            to: "Tests/CalmTests/T.swift")
        try folder.write(
            "import Crashy\nimport Testing\n@Test func dies() { crash() }\n", to: "Tests/CrashyTests/T.swift")
        let run = try await Self.ribcage(["test", "--path", folder.url.path])
        #expect(run.status == 1)
        let rows = run.outputText.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(
            rows.contains { Array($0.prefix(5)) == ["CalmTests", "1", "1", "0", "0"] }, "\(run.outputText)")
        #expect(rows.contains { Array($0.prefix(4)) == ["CrashyTests", "1", "0", "1"] }, "\(run.outputText)")
        #expect(run.outputText.contains("✘ CrashyTests (test run)"))
        #expect(run.outputText.hasSuffix("1 passed, 1 failed, 0 skipped\n"))
    }

    @Test(
        "test targets that crash only together fail the run, though each passes alone: plain swift test is red there"
    )
    func crashTogether() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(name: "Together", targets: [
                .target(name: "Shared"),
                .testTarget(name: "SetsTests", dependencies: ["Shared"]),
                .testTarget(name: "WatchesTests", dependencies: ["Shared"]),
            ])
            """, to: "Package.swift")
        try folder.write(
            "import Synchronization\npublic let raised = Mutex(false)\n", to: "Sources/Shared/Shared.swift")
        try folder.write(
            "import Shared\nimport Testing\n@Test func raises() { raised.withLock { $0 = true } }\n",
            to: "Tests/SetsTests/T.swift")
        // Alone, nothing raises the flag in its process, and the test passes after 20 s.
        try folder.write(
            """
            import Shared
            import Testing
            @Test func watches() async throws {
                for _ in 0..<200 {
                    if raised.withLock({ $0 }) { fatalError("raised in this process") }
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            """, to: "Tests/WatchesTests/T.swift")
        let run = try await Self.ribcage(["test", "--path", folder.url.path])
        #expect(run.status == 1, "\(run.outputText)\n\(run.errorText)")
        let rows = run.outputText.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.contains { Array($0.prefix(4)) == ["SetsTests", "1", "1", "0"] }, "\(run.outputText)")
        #expect(
            rows.contains { Array($0.prefix(4)) == ["WatchesTests", "1", "1", "0"] }, "\(run.outputText)")
        #expect(
            run.errorText.contains(
                "error: the run failed outside any one test target: `swift test` of these 2"),
            "\(run.errorText)")
        #expect(run.errorText.contains("each passed alone"), "\(run.errorText)")
    }

    @Test(
        "a test in an extension of another module's type fails its target's row, run or cached, instead of running nowhere; a target named Other-Tests runs as module Other_Tests"
    )
    func testsInForeignExtensions() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(name: "Shelf", targets: [
                .target(name: "Lib"),
                .testTarget(name: "LibTests", dependencies: ["Lib"]),
                .testTarget(name: "Other-Tests"),
            ])
            """, to: "Package.swift")
        try folder.write("public struct Widget { public init() {} }\n", to: "Sources/Lib/Lib.swift")
        // Named `Lib.Widget/isNotTwo()` by Swift Testing: red, and outside `^LibTests[./]`.
        try folder.write(
            """
            import Lib
            import Testing
            @Suite struct LibSuite { @Test func builds() { _ = Widget() } }
            extension Widget { @Test func isNotTwo() { #expect(1 == 2) } }
            typealias Shelf = LibSuite
            extension Shelf { @Test func aliased() {} }
            """, to: "Tests/LibTests/LibSuite.swift")
        // Compiled as module Other_Tests, which its tests are named after.
        try folder.write(
            "import Testing\n@Test func other() {}\n@Test func another() {}\n",
            to: "Tests/Other-Tests/T.swift")
        let path = folder.url.path
        let cacheHome = try TemporaryFolder()
        for arguments in [
            ["test"], ["test", "LibTests", "--cache"], ["test", "LibTests", "--cache", "--skip-build"],
        ] {
            let run = try await Shell.run(
                try await Self.ribcageExecutable().path, arguments + ["--path", path],
                environment: ["XDG_CACHE_HOME": cacheHome.url.path])
            #expect(run.status == 1, "\(arguments): \(run.outputText)\n\(run.errorText)")
            #expect(
                run.outputText.contains(
                    "1 test of LibTests sits in `extension Widget`: Swift Testing names it"),
                "\(arguments): \(run.outputText)")
            #expect(
                !run.outputText.contains("extension Shelf"),
                "a typealias of its own type is no other module's")
            #expect(!run.outputText.contains("(cached"), "\(arguments): \(run.outputText)")
        }
        let other = try await Self.ribcage(["test", "Other-Tests", "--path", path, "--skip-build"])
        #expect(other.succeeded, "\(other.outputText)\n\(other.errorText)")
        #expect(
            other.outputText.split(separator: "\n").last == "2 passed, 0 failed, 0 skipped",
            "a target whose name is not an identifier: \(other.outputText)")
    }

    @Test("explains a folder with no package")
    func noPackage() async throws {
        let empty = try TemporaryFolder()
        let result = try await Self.ribcage(["test", "--path", empty.url.path])
        #expect(result.status == 3)
        #expect(result.errorText.contains("No Package.swift in"))
    }

    @Test("explains a manifest that does not compile")
    func brokenManifest() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "// swift-tools-version: 6.1\nimport PackageDescription\nlet package = Package(\n",
            to: "Package.swift")
        let result = try await Self.ribcage(["test", "--list", "--path", folder.url.path])
        #expect(result.status == 4)
        #expect(result.errorText.contains("swift package describe` failed"))
    }
}
