import Foundation
import RibcageTool
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

    /// A package with a passing module (`Good`, Swift Testing and XCTest) and a failing one (`Bad`).
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
        #expect(listing.outputText.contains("Bad       BadTests"))
        #expect(listing.outputText.contains("Good      GoodTests"))
        #expect(listing.outputText.contains("Untested  —"))

        let all = try await Self.ribcage(["test", "--path", path])
        #expect(all.status == 1, "a failing test must fail the run")
        let lines = all.outputText.split(separator: "\n").map(String.init)
        let rows = lines.map { $0.split(separator: " ").map(String.init) }
        #expect(rows.contains { $0.count == 6 && Array($0.prefix(5)) == ["Bad", "2", "1", "1", "0"] })
        #expect(rows.contains { $0.count == 6 && Array($0.prefix(5)) == ["Good", "3", "3", "0", "1"] })
        #expect(lines.contains { $0.contains("✘ BadTests.BadSuite/three()") })
        #expect(lines.last == "4 passed, 1 failed, 1 skipped")

        let good = try await Self.ribcage(["test", "Good", "--path", path, "--skip-build"])
        #expect(good.succeeded, "\(good.outputText)\(good.errorText)")
        #expect(good.outputText.split(separator: "\n").last == "3 passed, 0 failed, 1 skipped")
        #expect(!good.outputText.contains("Bad "))

        let unknown = try await Self.ribcage(["test", "Nope", "--path", path, "--skip-build"])
        #expect(unknown.status == 64)
        #expect(unknown.errorText.contains("Unknown module 'Nope'. Known modules: Bad, Good, Untested."))
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
