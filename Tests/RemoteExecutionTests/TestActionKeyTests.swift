import Foundation
import RemoteExecution
import SwiftProtobuf
import Testing

/// What goes into a ``TestAction``'s key, and what does not: each part of a run changes it, the
/// same run always gives the same one. Pure: the files are written here, nothing is run.
@Suite("The key of a test action")
struct TestActionKeyTests {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcage-test-action-key-\(UUID().uuidString)", isDirectory: true)
        for (path, text) in [
            ".build/debug/PackageTests.xctest": "a bundle", "Tests/T/Fixtures/a.txt": "a",
            ".build/debug/P_T.resources/one.json": "{}", ".build/debug/P_T.resources/sub/.hidden": "h",
        ] {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755],
            ofItemAtPath: root.appendingPathComponent(".build/debug/PackageTests.xctest").path)
    }

    func action(
        filter: String? = "^T\\.", files: [String] = ["Tests/T/Fixtures/a.txt"],
        environment: [String: String] = [:],
        image: String = "image 1"
    ) throws -> TestAction {
        try TestAction(
            packageRoot: root, testBundle: root.appendingPathComponent(".build/debug/PackageTests.xctest"),
            filter: filter, files: files.map { root.appendingPathComponent($0) }, environment: environment,
            workerImage: image, timeout: .seconds(60))
    }

    func standIn(builtFrom: String = "test target T abc", files: [String] = ["Tests/T/Fixtures/a.txt"])
        throws -> TestAction
    {
        try TestAction.standIn(
            packageRoot: root, testBundle: root.appendingPathComponent(".build/debug/PackageTests.xctest"),
            filter: "^T\\.", files: files.map { root.appendingPathComponent($0) }, builtFrom: builtFrom,
            environment: [:], workerImage: "image 1", timeout: .seconds(60))
    }

    @Test(
        "a stand-in's key follows what the bundle is built from, not its bytes; the unbuilt files still change it"
    )
    func standInKey() throws {
        let base = try standIn()
        #expect(base.actionDigest != (try action(environment: [:])).actionDigest)
        try Data("a rebuilt bundle".utf8).write(
            to: root.appendingPathComponent(".build/debug/PackageTests.xctest"))
        #expect(try standIn().actionDigest == base.actionDigest, "a rebuilt bundle, same sources")
        #expect(try standIn(builtFrom: "test target T abd").actionDigest != base.actionDigest)
        #expect(try standIn(files: []).actionDigest != base.actionDigest)
        try Data("b".utf8).write(to: root.appendingPathComponent("Tests/T/Fixtures/a.txt"))
        #expect(try standIn().actionDigest != base.actionDigest, "a changed fixture")
        // A stand-in stands for a run of the same files, not for one whose fixture changed in
        // between.
        let run = try action(environment: [:])
        let standInOfRun = try TestAction.standIn(
            packageRoot: root, testBundle: root.appendingPathComponent(".build/debug/PackageTests.xctest"),
            filter: "^T\\.", files: [root.appendingPathComponent("Tests/T/Fixtures/a.txt")], builtFrom: "k",
            environment: [:], workerImage: "image 1", timeout: .seconds(60))
        #expect(standInOfRun.standsIn(for: run))
        try Data("c".utf8).write(to: root.appendingPathComponent("Tests/T/Fixtures/a.txt"))
        #expect(!standInOfRun.standsIn(for: try action(environment: [:])))
        // The bundle is never read for a stand-in: one that is not there changes nothing.
        try FileManager.default.removeItem(
            at: root.appendingPathComponent(".build/debug/PackageTests.xctest"))
        #expect(try standIn().actionDigest == (try standIn()).actionDigest)
        let paths = try standIn().blobs.values.compactMap { source -> String? in
            if case .file(let path) = source { path } else { nil }
        }
        #expect(paths.allSatisfy { !$0.hasSuffix(".xctest") }, "\(paths)")
    }

    @Test("a file is hashed once while it is unchanged, and again once it is written")
    func fileDigestsFollowChanges() throws {
        let digests = FileDigests()
        let file = root.appendingPathComponent("Tests/T/Fixtures/a.txt")
        let first = try digests.digest(ofFile: file.path)
        #expect(first == BlobDigest(of: Data("a".utf8)))
        #expect(try digests.digest(ofFile: file.path) == first)
        try Data("b".utf8).write(to: file)
        #expect(try digests.digest(ofFile: file.path) == BlobDigest(of: Data("b".utf8)))
        #expect(throws: TestAction.UnreadableInput.self) {
            try digests.digest(ofFile: root.appendingPathComponent("absent").path)
        }
    }

    @Test("the same run gives the same key; each part of it changes the key")
    func eachPartChangesTheKey() throws {
        let base = try action(environment: ["A": "1"])
        #expect(try action(environment: ["A": "1"]).actionDigest == base.actionDigest)
        let others = [
            try action(filter: "^U\\.", environment: ["A": "1"]),
            try action(filter: nil, environment: ["A": "1"]),
            try action(files: [], environment: ["A": "1"]),
            try action(environment: ["A": "2"]),
            try action(environment: ["A": "1", "B": "1"]),
            try action(environment: ["A": "1"], image: "image 2"),
        ]
        for other in others { #expect(other.actionDigest != base.actionDigest) }
        #expect(Set(others.map(\.actionDigest)).count == others.count)

        try Data("b".utf8).write(to: root.appendingPathComponent("Tests/T/Fixtures/a.txt"))
        #expect(try action(environment: ["A": "1"]).actionDigest != base.actionDigest, "a changed fixture")
        try Data("another bundle".utf8).write(
            to: root.appendingPathComponent(".build/debug/PackageTests.xctest"))
        #expect(try action(environment: ["A": "1"]).actionDigest != base.actionDigest, "a rebuilt bundle")
    }

    @Test("the command: Swift Testing's arguments, the environment sorted by UTF-8 bytes, the image named")
    func command() throws {
        // "Z" (0x5A) sorts before "a" (0x61) and "é" (0xC3 0xA9) after both, by bytes; the
        // run's HOME (0x48) before all.
        let made = try action(environment: ["é": "3", "a": "2", "Z": "1"])
        #expect(made.command.environmentVariables.map(\.name) == ["HOME", "Z", "a", "é"])
        #expect(
            made.command.arguments == [
                "./.build/debug/PackageTests.xctest", "--testing-library", "swift-testing", "--xunit-output",
                TestAction.xunitPath, "--event-stream-output-path", TestAction.eventsPath,
                "--event-stream-version",
                "0", "--filter", "^T\\.",
            ])
        #expect(made.command.workingDirectory == String(root.standardizedFileURL.path.dropFirst()))
        #expect(made.command.platform.properties.map(\.name) == [TestAction.workerImageProperty])
        #expect(made.action.platform == made.command.platform)
        #expect(made.action.timeout.seconds == 60)
    }

    @Test(
        "HOME is an empty folder of the input root in the package's .ribcage-remote, unless the run names one"
    )
    func home() throws {
        let home = root.standardizedFileURL.path + "/" + TestAction.homePath
        let made = try action()
        let variables = made.command.environmentVariables.map { ($0.name, $0.value) }
        #expect(variables.first { $0.0 == "HOME" }?.1 == home)
        // Followed down from the action's input root, the folder is there and empty.
        let homeFolder = try #require(
            try Self.directory(
                at: String(home.dropFirst()), from: made.action.inputRootDigest, in: made.blobs))
        #expect(homeFolder.files.isEmpty && homeFolder.directories.isEmpty)
        #expect(!made.inputs.keys.contains { $0.hasPrefix(String(home.dropFirst())) })

        let named = try action(environment: ["HOME": "/elsewhere"])
        #expect(
            named.command.environmentVariables.filter { $0.name == "HOME" }.map(\.value) == ["/elsewhere"])
        #expect(
            try Self.directory(
                at: String(home.dropFirst()), from: named.action.inputRootDigest, in: named.blobs)
                == nil)
        #expect(named.actionDigest != made.actionDigest)
    }

    @Test(
        "an empty folder is a Directory of its own; one with files under it is those files; a clash is refused"
    )
    func emptyFolders() throws {
        let file = InputTree.File(Data("x".utf8))
        let filesAlone = try InputTree(files: ["a/b/x": file]).merkle().root
        #expect(try InputTree(files: ["a/b/x": file], folders: ["a", "a/b"]).merkle().root == filesAlone)
        #expect(try InputTree(files: ["a/b/x": file], folders: ["a/c"]).merkle().root != filesAlone)
        #expect(throws: InputTree.InvalidTree.self) {
            try InputTree(files: ["a/b": file], folders: ["a/b"]).merkle()
        }
        #expect(throws: InputTree.InvalidTree.self) {
            try InputTree(files: ["a/b": file], folders: ["a/../c"]).merkle()
        }
    }

    /// The `Directory` at `path` below the input root `root`, read from `blobs`; nil when there
    /// is none.
    static func directory(at path: String, from root: REAPI.Digest, in blobs: [BlobDigest: BlobSource]) throws
        -> REAPI.Directory?
    {
        var digest = BlobDigest(root)
        for name in path.split(separator: "/") {
            guard case .bytes(let bytes)? = blobs[digest] else { return nil }
            let folder = try REAPI.Directory(serializedBytes: bytes)
            guard let next = folder.directories.first(where: { $0.name == name }) else { return nil }
            digest = BlobDigest(next.digest)
        }
        guard case .bytes(let bytes)? = blobs[digest] else { return nil }
        return try REAPI.Directory(serializedBytes: bytes)
    }

    @Test("a folder among the files stands for every file under it, hidden ones too")
    func folders() throws {
        let withFolder = try action(files: [".build/debug/P_T.resources"])
        let listed = try action(files: [
            ".build/debug/P_T.resources/one.json", ".build/debug/P_T.resources/sub/.hidden",
        ])
        #expect(withFolder.actionDigest == listed.actionDigest)
        #expect(try action(files: []).actionDigest != withFolder.actionDigest)
    }

    @Test("a package folder with no input under it is refused: it is the working directory")
    func workingDirectoryInTheTree() throws {
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcage-elsewhere-\(UUID().uuidString)")
        #expect(throws: TestAction.UnreadableInput.self) {
            try TestAction(
                packageRoot: elsewhere,
                testBundle: root.appendingPathComponent(".build/debug/PackageTests.xctest"),
                filter: nil, files: [], environment: [:], workerImage: "image", timeout: .seconds(1))
        }
        #expect(throws: TestAction.UnreadableInput.self) {
            try action(files: ["Tests/T/Fixtures/missing.txt"])
        }
    }
}
