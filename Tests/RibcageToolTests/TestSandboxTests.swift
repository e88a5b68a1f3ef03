import Foundation
import RibcagePackage
import RibcageTesting
import Testing

/// `ribcage test --sandbox`: a suite sees, of its package, only its declared inputs and what
/// its last cached run read, so a read of anything else fails, and says so, instead of hiding.
@Suite("ribcage test --sandbox", .serialized)
struct TestSandboxTests {
    /// `Boxed`: `DeclaredTests` reads a file of its own folder and one of the library it tests;
    /// `UndeclaredTests` reads a fixtures folder that belongs to no target.
    static func makePackage() async throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(
                name: "Boxed",
                targets: [
                    .target(name: "Lib"),
                    .testTarget(name: "DeclaredTests", dependencies: ["Lib"]),
                    .testTarget(name: "UndeclaredTests"),
                ])
            """, to: "Package.swift")
        try folder.write("public let libValue = 1\n", to: "Sources/Lib/Lib.swift")
        try folder.write("lib data\n", to: "Sources/Lib/data.txt")
        try folder.write("own data\n", to: "Tests/DeclaredTests/own.txt")
        try folder.write("fixture\n", to: "Tests/Fixtures/value.txt")
        func read(_ path: String) -> String {
            "try String(contentsOf: here.appendingPathComponent(\"\(path)\"), encoding: .utf8)"
        }
        try folder.write(
            TestCacheSoundnessTests.test(
                "declared",
                reading: """
                        #expect(\(read("own.txt")) == "own data\\n")
                        #expect(\(read("../../Sources/Lib/data.txt")) == "lib data\\n")
                    """), to: "Tests/DeclaredTests/DeclaredTests.swift")
        try folder.write(
            TestCacheSoundnessTests.test(
                "undeclared", reading: "    #expect(\(read("../Fixtures/value.txt")) == \"fixture\\n\")"),
            to: "Tests/UndeclaredTests/UndeclaredTests.swift")
        return folder
    }

    static var canSandbox: Bool {
        Shell.isOnPath("bwrap") && Shell.isOnPath("strace")
    }

    @Test(
        "an undeclared read passes unsandboxed and fails sandboxed, naming the file; declared and recorded reads pass",
        .enabled(if: canSandbox, "bwrap or strace is not installed (Tools/install-system-packages)"))
    func undeclaredReadFails() async throws {
        let folder = try await Self.makePackage()
        let cacheHome = folder.url.appendingPathComponent("cache")
        func ribcage(_ arguments: [String]) async throws -> TestCacheSoundnessTests.Run {
            try await TestCacheSoundnessTests.ribcage(arguments, in: folder.url, cacheHome: cacheHome)
        }
        let plain = try await ribcage(["test"])
        #expect(plain.status == 0, "\(plain.output)\n\(plain.errors)")
        #expect(plain.output.contains("2 passed, 0 failed"), "\(plain.output)")

        // Sandboxed, nothing recorded yet: the fixtures folder is no declared input. Without the
        // trace, the log names the file; with it (--cache), the failed open does.
        for arguments in [
            ["test", "--sandbox", "--skip-build"], ["test", "--sandbox", "--cache", "--skip-build"],
        ] {
            let boxed = try await ribcage(arguments)
            #expect(boxed.status == 1, "\(arguments): \(boxed.output)\n\(boxed.errors)")
            #expect(boxed.output.contains("1 passed, 1 failed"), "\(arguments): \(boxed.output)")
            #expect(
                boxed.errors.contains("UndeclaredTests failed sandboxed"), "\(arguments): \(boxed.errors)")
            #expect(
                boxed.errors.contains("It could not see Tests/Fixtures/value.txt"),
                "\(arguments): \(boxed.errors)")
            #expect(!boxed.errors.contains("DeclaredTests failed sandboxed"), "\(arguments): \(boxed.errors)")
        }

        // An unsandboxed cached run records the read; the sandbox then shows the file.
        let recorded = try await ribcage(["test", "--cache", "--skip-build"])
        #expect(recorded.status == 0, "\(recorded.output)\n\(recorded.errors)")
        let boxed = try await ribcage(["test", "--sandbox", "--skip-build"])
        #expect(boxed.status == 0, "\(boxed.output)\n\(boxed.errors)")
        #expect(boxed.output.contains("2 passed, 0 failed"), "\(boxed.output)")
    }

    @Test("a failure note names the trace or log it could not read, instead of only naming no file")
    func failureNoteNamesWhatItCouldNotRead() async throws {
        let folder = try TemporaryFolder()
        try folder.write("import Testing\n", to: "Tests/ATests/A.swift")
        let package = DescribedPackage(
            name: "Boxed", path: folder.url.path,
            targets: [DescribedPackage.Target(name: "ATests", type: "test", path: "Tests/ATests")])
        let inputs = try TestCacheInputs(
            root: folder.url, package: package, toolchain: "", configuration: "debug", flags: [],
            environment: [:], declaredVariables: [])
        let sandbox = try SuiteSandbox(testTarget: "ATests", inputs: inputs, recorded: [])
        let missingTrace = folder.url.appendingPathComponent("ATests.strace")
        try folder.write("no file named here\n", to: "ATests.log")
        let note = await sandbox.failureNote(
            traces: [missingTrace], logs: [folder.url.appendingPathComponent("ATests.log")])
        #expect(note.contains("ATests failed sandboxed"), "\(note)")
        #expect(note.contains("neither its trace nor its log names a file"), "\(note)")
        #expect(note.contains("could not read \(missingTrace.path)"), "\(note)")
    }
}
