import BlockingWork
import Foundation
import RibcageLint
import RibcagePackage
import RibcageTesting
import Testing

/// The async forms of the tool's blocking reads run them on a thread of their own
/// (``DedicatedThread``) and must answer exactly what the blocking forms answer.
@Suite("Reads off the cooperative pool")
struct OffThePoolTests {
    static func package(at folder: TemporaryFolder) throws -> DescribedPackage {
        try folder.write("public let base = 1\n", to: "Sources/Base/Base.swift")
        try folder.write("import Base\npublic let feature = base\n", to: "Sources/Feature/Feature.swift")
        try folder.write("// not Swift\n", to: "Sources/Feature/notes.txt")
        try folder.write(
            "import Testing\n@Test func one() {}\n@Test func two() {}\n",
            to: "Tests/BaseTests/BaseTests.swift")
        try folder.write(
            "import XCTest\nfinal class T: XCTestCase { func testOne() {} }\n",
            to: "Tests/FeatureTests/T.swift")
        return DescribedPackage(
            name: "Fixture", path: folder.url.path,
            targets: [
                .init(name: "Base", type: "library", path: "Sources/Base", sources: ["Base.swift"]),
                .init(
                    name: "Feature", type: "library", path: "Sources/Feature", targetDependencies: ["Base"],
                    sources: ["Feature.swift", "notes.txt"]),
                .init(
                    name: "BaseTests", type: "test", path: "Tests/BaseTests", targetDependencies: ["Base"],
                    sources: ["BaseTests.swift"]),
                .init(
                    name: "FeatureTests", type: "test", path: "Tests/FeatureTests",
                    targetDependencies: ["Feature"], sources: ["T.swift"]),
            ])
    }

    @Test("lint's sources are those read in place, and an unreadable one is still its typed error")
    func sources() async throws {
        let folder = try TemporaryFolder()
        let package = try Self.package(at: folder)
        // The blocking form, on a thread of its own too: it parses on every core and waits.
        let inPlace = try await DedicatedThread.run(named: "test-lint-sources") {
            try Linter.readSources(of: package, root: folder.url)
        }
        let offPool = try await Linter.readSourcesOffThePool(of: package, root: folder.url)
        let texts = { (sources: [String: [Linter.SourceFile]]) in
            sources.mapValues { $0.map { "\($0.path)\n\($0.text)\n\($0.references.map(\.module))" } }
        }
        #expect(texts(offPool) == texts(inPlace))
        #expect(offPool["Feature"]?.map(\.path) == ["Sources/Feature/Feature.swift"])
        #expect(offPool["Feature"]?.first?.references.map(\.module) == ["Base"], "parsed as they are read")
        #expect(offPool["BaseTests"]?.first?.references.map(\.module) == ["Testing"])

        try Data([0xFF, 0xFE, 0x00]).write(to: folder.url.appendingPathComponent("Sources/Base/Base.swift"))
        await #expect(throws: RibcageError.unreadableSource("Sources/Base/Base.swift")) {
            try await Linter.readSourcesOffThePool(of: package, root: folder.url)
        }
    }

    @Test("the toolchain is the one read in place: its modules, compiler version and folder")
    func toolchain() async throws {
        let offPool = try await Toolchain.currentOffThePool()
        #expect(offPool == Toolchain.current())
        #expect(offPool.modules.contains("Swift"))
    }

    @Test("--shard's weights are those read in place: test counts without a last run, then its seconds")
    func shardWeights() async throws {
        let folder = try TemporaryFolder()
        let package = try Self.package(at: folder)
        let suites = TestSuiteIndex(package: package).suites
        let counted = try await TestSharding.weightsOffThePool(
            for: suites, package: package, root: folder.url)
        #expect(counted == TestSharding.weights(for: suites, package: package, root: folder.url))
        #expect(counted == ["BaseTests": 2, "FeatureTests": 1])

        try folder.write(
            #"{"BaseTests": 3.5, "FeatureTests": 0.25}"#, to: ".build/ribcage-test-durations.json")
        let timed = try await TestSharding.weightsOffThePool(for: suites, package: package, root: folder.url)
        #expect(timed == ["BaseTests": 3.5, "FeatureTests": 0.25])
    }
}
