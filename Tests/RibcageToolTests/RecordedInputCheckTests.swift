import Foundation
import RibcagePackage
import RibcageTesting
import Testing

/// A look-up checks every entry's recorded inputs at once (``TestCacheInputs/changedInputs(of:)``),
/// taking the digests the keys just read where it can: it must see each change as reading the
/// file again would.
@Suite("Test cache: recorded inputs checked in one batch")
struct RecordedInputCheckTests {
    /// Tool (an executable) ← Core ← CoreTests; a fixtures folder no target owns.
    static let package = DescribedPackage(
        name: "Checked", path: "/checked",
        targets: [
            .init(name: "Core", type: "library", path: "Sources/Core"),
            .init(name: "Tool", type: "executable", path: "Sources/Tool", targetDependencies: ["Core"]),
            .init(name: "CoreTests", type: "test", path: "Tests/CoreTests", targetDependencies: ["Core"]),
        ])

    static func inputs(_ folder: TemporaryFolder) throws -> TestCacheInputs {
        try TestCacheInputs(
            root: folder.url, package: package, toolchain: "swift", configuration: "debug", flags: [],
            environment: [:], declaredVariables: [])
    }

    static func entry(_ testTarget: String, recorded: [RecordedInput]?) -> TestCacheEntry {
        TestCacheEntry(
            testTarget: testTarget, key: TestCacheKey(testTarget: testTarget, parts: []), passed: 1,
            skipped: 0,
            seconds: 0.1, commit: nil, host: "test", date: Date(), recordedInputs: recorded)
    }

    @Test(
        "a file the keys read, a folder they listed, a file and a folder outside them, and a program: each change seen"
    )
    func everyKind() throws {
        let folder = try TemporaryFolder()
        try folder.write("// swift-tools-version: 6.1\n", to: "Package.swift")
        try folder.write("public let core = 1\n", to: "Sources/Core/Core.swift")
        try folder.write("import Core\nprint(core)\n", to: "Sources/Tool/main.swift")
        try folder.write("import Testing\n@Test func one() {}\n", to: "Tests/CoreTests/CoreTests.swift")
        try folder.write("a\n", to: "Fixtures/a.txt")

        let before = try Self.inputs(folder)
        // A program's digest is the same whether the keys hashed its sources first or not.
        let toolAlone = try before.sourcesDigest(ofTarget: "Tool")
        _ = try before.keys(for: ["CoreTests"])
        #expect(try before.sourcesDigest(ofTarget: "Tool") == toolAlone)
        var recorded = [
            RecordedInput(kind: .file, path: "Tests/CoreTests/CoreTests.swift", digest: ""),
            RecordedInput(kind: .file, path: "Fixtures/a.txt", digest: ""),
            RecordedInput(kind: .listing, path: "Fixtures", digest: ""),
            // Listed by the keys' walk: digested from it, as listing it again would.
            RecordedInput(kind: .listing, path: "Tests/CoreTests", digest: ""),
            RecordedInput(kind: .product, path: "Tool", digest: ""),
        ]
        for index in recorded.indices { recorded[index].digest = recorded[index].currentDigest(in: before) }
        let entries = [
            "CoreTests": Self.entry("CoreTests", recorded: recorded),
            "OldTests": Self.entry("OldTests", recorded: nil),
        ]
        let unchanged = before.changedInputs(of: entries)
        #expect(unchanged["CoreTests"] == .some([]))
        #expect(unchanged["OldTests"] == .some(nil), "an entry that records nothing is stale")

        try folder.write("import Testing\n@Test func two() {}\n", to: "Tests/CoreTests/CoreTests.swift")
        try folder.write("b\n", to: "Fixtures/a.txt")
        try folder.write("new\n", to: "Fixtures/b.txt")
        try folder.write("public let core = 2\n", to: "Sources/Core/Core.swift")
        try folder.write("x\n", to: "Tests/CoreTests/Extra.txt")
        let after = try Self.inputs(folder)
        _ = try after.keys(for: ["CoreTests"])
        let changed = try #require(after.changedInputs(of: entries)["CoreTests"] ?? nil)
        #expect(
            Set(changed.map(\.path)) == [
                "Tests/CoreTests/CoreTests.swift", "Fixtures/a.txt", "Fixtures", "Tests/CoreTests", "Tool",
            ])
        #expect(try Self.inputs(folder).sourcesDigest(ofTarget: "Tool") != toolAlone)
    }
}
