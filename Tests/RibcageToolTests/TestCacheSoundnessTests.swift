import Foundation
import RibcagePackage
import Testing

/// `ribcage test --cache` never answers "cached: green" for a change that breaks a test: one
/// generated package whose suites each read their inputs in a way real packages do and a key
/// alone does not see, each broken by a change to that input only.
@Suite("ribcage test --cache: what a suite really reads", .serialized)
struct TestCacheSoundnessTests {
    /// Each suite, and the file whose change breaks it.
    static let breaks: [(suite: String, file: String, good: String, bad: String)] = [
        // An executable the tests run from the build folder without declaring it.
        ("ExecTests", "Pkg/Sources/Tool/main.swift", #"print("ok")"#, #"print("broken")"#),
        // A shared fixtures folder that belongs to no target, read through #filePath.
        ("FixtureTests", "Pkg/Tests/Fixtures/value.txt", "1", "2"),
        // A file in another test target's folder.
        ("CrossTests", "Pkg/Tests/FixtureTests/shared.txt", "shared", "other"),
        // A source in a linked folder inside the target's folder: SwiftPM compiles it.
        ("LinkedTests", "Pkg/Shared/Linked/Value.swift", "let linkedValue = 1", "let linkedValue = 2"),
        // A file at the package root.
        ("RootFileTests", "Pkg/config.txt", "on", "off"),
        // A `.package(path:)` dependency's source.
        (
            "LocalDependencyTests", "Dep/Sources/Dep/Dep.swift", "public let depValue = 1",
            "public let depValue = 2"
        ),
        // A file a child process reads.
        ("ChildTests", "Pkg/Tests/ChildData/input.txt", "child", "changed"),
        // A file read through a link and through `..`.
        ("LinkReadTests", "Pkg/Tests/Real/real.txt", "real", "unreal"),
    ]
    static let untouched = "PlainTests"
    static var suites: Set<String> { Set(breaks.map(\.suite) + [untouched]) }

    /// A test file of one test, `name`, whose body is `body`; `here` is its folder, and
    /// `output(of:_:)` runs a program and returns what it printed.
    static func test(_ name: String, reading body: String) -> String {
        """
        import Foundation
        import Testing
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        @Test func \(name)() throws {
        \(body)
        }
        func output(of program: URL, _ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = program
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: output, as: UTF8.self)
        }

        """
    }

    /// `Pkg` (the package under test) and `Dep` (its local dependency), side by side.
    static func makePackages() async throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(
                name: "Pkg",
                dependencies: [.package(path: "../Dep")],
                targets: [
                    .executableTarget(name: "Tool"),
                    .target(name: "Unrelated"),
                    .testTarget(name: "ExecTests"),
                    .testTarget(name: "FixtureTests"),
                    .testTarget(name: "CrossTests"),
                    .testTarget(name: "LinkedTests"),
                    .testTarget(name: "RootFileTests"),
                    .testTarget(name: "LocalDependencyTests", dependencies: [.product(name: "Dep", package: "Dep")]),
                    .testTarget(name: "ChildTests"),
                    .testTarget(name: "LinkReadTests"),
                    .testTarget(name: "PlainTests"),
                ])
            """, to: "Pkg/Package.swift")
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(
                name: "Dep", products: [.library(name: "Dep", targets: ["Dep"])], targets: [.target(name: "Dep")])
            """, to: "Dep/Package.swift")
        for item in breaks { try folder.write(item.good + "\n", to: item.file) }
        try folder.write("public let unrelated = 1\n", to: "Pkg/Sources/Unrelated/Unrelated.swift")
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("Pkg/Tests/LinkedTests"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("Pkg/Tests/LinkedTests/Linked").path,
            withDestinationPath: "../../Shared/Linked")

        func read(_ path: String) -> String {
            "try String(contentsOf: here.appendingPathComponent(\"\(path)\"), encoding: .utf8)"
                + ".trimmingCharacters(in: .whitespacesAndNewlines)"
        }
        try folder.write(
            test(
                "exec",
                reading: """
                        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
                            .deletingLastPathComponent()
                        #expect(try output(of: bin.appendingPathComponent("Tool"), []) == "ok\\n")
                    """), to: "Pkg/Tests/ExecTests/ExecTests.swift")
        try folder.write(
            test("fixture", reading: "    #expect(\(read("../Fixtures/value.txt")) == \"1\")"),
            to: "Pkg/Tests/FixtureTests/FixtureTests.swift")
        try folder.write(
            test("cross", reading: "    #expect(\(read("../FixtureTests/shared.txt")) == \"shared\")"),
            to: "Pkg/Tests/CrossTests/CrossTests.swift")
        try folder.write(
            test("linked", reading: "    #expect(linkedValue == 1)"),
            to: "Pkg/Tests/LinkedTests/LinkedTests.swift")
        try folder.write(
            test("root", reading: "    #expect(\(read("../../config.txt")) == \"on\")"),
            to: "Pkg/Tests/RootFileTests/RootFileTests.swift")
        try folder.write(
            "import Dep\n" + test("dependency", reading: "    #expect(depValue == 1)"),
            to: "Pkg/Tests/LocalDependencyTests/LocalDependencyTests.swift")
        try folder.write(
            test(
                "child",
                reading: """
                        let input = here.appendingPathComponent("../ChildData/input.txt").path
                        #expect(try output(of: URL(fileURLWithPath: "/bin/sh"), ["-c", "cat '\\(input)'"]) == "child\\n")
                    """), to: "Pkg/Tests/ChildTests/ChildTests.swift")
        try folder.write(
            test(
                "linkRead",
                reading: """
                        #expect(\(read("alias.txt")) == "real")
                        #expect(\(read("../LinkReadTests/../Real/real.txt")) == "real")
                    """), to: "Pkg/Tests/LinkReadTests/LinkReadTests.swift")
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("Pkg/Tests/LinkReadTests/alias.txt").path,
            withDestinationPath: "../Real/real.txt")
        try folder.write(
            test(
                "plain",
                reading: """
                        #expect(ProcessInfo.processInfo.environment["PKG_MODE"] == nil)
                        #expect(1 + 1 == 2)
                    """), to: "Pkg/Tests/PlainTests/PlainTests.swift")
        try folder.write(".build/\n", to: "Pkg/.gitignore")
        try await PackageFixtures.commitEverything(
            in: folder.url.appendingPathComponent("Pkg"), message: "Pkg")
        return folder
    }

    struct Run {
        var status: Int32
        var output: String
        var errors: String

        var cached: Set<String> { suites { $0.contains("cached: green at") } }
        var ran: Set<String> { suites { !$0.contains("cached: green at") } }
        /// The suites whose row shows a failed test.
        var failed: Set<String> {
            suites { line in
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                return columns.count >= 4 && columns[3] != "0" && !line.contains("cached")
            }
        }

        private func suites(_ matching: (Substring) -> Bool) -> Set<String> {
            Set(
                output.split(separator: "\n").compactMap { line in
                    let name = String(line.prefix { $0 != " " })
                    return TestCacheSoundnessTests.suites.contains(name) && matching(line) ? name : nil
                })
        }
    }

    static func ribcage(_ arguments: [String], in package: URL, cacheHome: URL) async throws -> Run {
        let result = try await Shell.run(
            try await RibcageExecutableTests.ribcageExecutable().path, arguments, in: package,
            environment: ["XDG_CACHE_HOME": cacheHome.path, "PKG_MODE": nil])
        return Run(status: result.status, output: result.outputText, errors: result.errorText)
    }

    @Test(
        "each kind of change that breaks a suite reruns it; touching, an unrelated module, a clone and a revert do not",
        .enabled(if: Shell.isOnPath("strace"), "strace is not installed (Tools/install-system-packages)"))
    func everyKindOfChange() async throws {
        let folder = try await Self.makePackages()
        let package = folder.url.appendingPathComponent("Pkg")
        let cacheHome = folder.url.appendingPathComponent("cache")

        // A first run stores every suite; the variable PlainTests reads is named with its line.
        let first = try await Self.ribcage(["test", "--cache"], in: package, cacheHome: cacheHome)
        #expect(first.status == 0, "\(first.output)\n\(first.errors)")
        #expect(first.ran == Self.suites, "\(first.output)")
        #expect(
            first.errors.contains(
                "Tests/PlainTests/PlainTests.swift:5 reads the environment variable PKG_MODE"),
            "\(first.errors)")

        // No needless miss: a touch, a change to a module no suite uses, a fresh clone.
        let touch = try await Shell.run(
            "touch", [package.appendingPathComponent("Tests/Fixtures/value.txt").path])
        #expect(touch.succeeded)
        try folder.write("public let unrelated = 2\n", to: "Pkg/Sources/Unrelated/Unrelated.swift")
        let unchanged = try await Self.ribcage(["test", "--cache"], in: package, cacheHome: cacheHome)
        #expect(unchanged.status == 0, "\(unchanged.output)\n\(unchanged.errors)")
        #expect(unchanged.cached == Self.suites, "\(unchanged.output)\n\(unchanged.errors)")
        try folder.write("public let unrelated = 1\n", to: "Pkg/Sources/Unrelated/Unrelated.swift")
        let clone = folder.url.appendingPathComponent("Clone/Pkg")
        let cloned = try await Shell.run("git", ["clone", "-q", package.path, clone.path])
        try #require(cloned.succeeded, "\(cloned.errorText)")
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("Clone/Dep"),
            withDestinationURL: folder.url.appendingPathComponent("Dep"))
        let fromClone = try await Self.ribcage(["test", "--cache"], in: clone, cacheHome: cacheHome)
        #expect(fromClone.cached == Self.suites, "\(fromClone.output)\n\(fromClone.errors)")

        // Every breaking change at once: each touches one suite's input only, so each suite
        // that reruns was caught by its own record, and PlainTests stays cached.
        for item in Self.breaks { try folder.write(item.bad + "\n", to: item.file) }
        let broken = try await Self.ribcage(["test", "--cache"], in: package, cacheHome: cacheHome)
        #expect(broken.status == 1, "\(broken.output)\n\(broken.errors)")
        #expect(broken.ran == Self.suites.subtracting([Self.untouched]), "\(broken.output)\n\(broken.errors)")
        #expect(
            broken.failed == Self.suites.subtracting([Self.untouched]), "each change really breaks its suite")
        #expect(broken.cached == [Self.untouched])

        // --explain-cache names the input that changed.
        let explained = try await Self.ribcage(
            ["test", "--explain-cache", "FixtureTests"], in: package, cacheHome: cacheHome)
        #expect(explained.output.contains("~ file Tests/Fixtures/value.txt"), "\(explained.output)")

        // Put back, every suite is a hit again: the entries of the first run still match.
        for item in Self.breaks { try folder.write(item.good + "\n", to: item.file) }
        let reverted = try await Self.ribcage(["test", "--cache"], in: package, cacheHome: cacheHome)
        #expect(reverted.cached == Self.suites, "\(reverted.output)\n\(reverted.errors)")

        // A recorded input deleted: its suite runs (and fails without it).
        try FileManager.default.removeItem(at: package.appendingPathComponent("Tests/Fixtures/value.txt"))
        let deleted = try await Self.ribcage(["test", "--cache"], in: package, cacheHome: cacheHome)
        #expect(deleted.ran == ["FixtureTests"], "\(deleted.output)\n\(deleted.errors)")
        #expect(deleted.errors.contains("FixtureTests: read Tests/Fixtures/value.txt"), "\(deleted.errors)")
    }

    /// A test that fails under a tracer, as one that runs strace itself does: it looks for its tracer.
    static let failsTraced = test(
        "untraced",
        reading: """
                let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
                #expect(status.contains("TracerPid:\\t0\\n"))
            """)

    @Test(
        "a suite that fails only under the trace runs again without it: green, said, and never stored",
        .enabled(if: Shell.isOnPath("strace"), "strace is not installed (Tools/install-system-packages)"))
    func failsOnlyTraced() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(name: "Traced", targets: [.testTarget(name: "TracedTests")])
            """, to: "Package.swift")
        try folder.write(Self.failsTraced, to: "Tests/TracedTests/TracedTests.swift")
        let cacheHome = folder.url.appendingPathComponent("cache")
        // The second run remembers it and starts it untraced, once.
        for (run, said) in [
            (1, "TracedTests failed under strace and passed without it"),
            (2, "TracedTests: runs without strace, as an earlier run saw it fail under strace only"),
        ] {
            let result = try await Self.ribcage(["test", "--cache"], in: folder.url, cacheHome: cacheHome)
            #expect(result.status == 0, "run \(run): \(result.output)\n\(result.errors)")
            #expect(result.errors.contains(said), "run \(run): \(result.errors)")
            #expect(
                result.output.contains("1 passed, 0 failed, 0 skipped, 0 suites from cache"), "run \(run)")
        }
    }

    @Test(
        "a suite Project.swift.md declares untraced runs untraced from a first run on, once, never stored",
        .enabled(if: Shell.isOnPath("strace"), "strace is not installed (Tools/install-system-packages)"))
    func declaredUntraced() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(
                name: "Declared",
                targets: [.testTarget(name: "TracedTests"), .testTarget(name: "PlainTests")])
            """, to: "Package.swift")
        try folder.write(Self.failsTraced, to: "Tests/TracedTests/TracedTests.swift")
        try folder.write(
            Self.test("plain", reading: "#expect(1 + 1 == 2)"), to: "Tests/PlainTests/PlainTests.swift")
        try folder.write(
            """
            # Declared

            ## Untraced test targets

            | Test target | Why it runs without strace |
            |-------------|----------------------------|
            | `TracedTests` | It looks for its tracer |
            """, to: "Project.swift.md")
        let cacheHome = folder.url.appendingPathComponent("cache")
        let first = try await Self.ribcage(["test", "--cache"], in: folder.url, cacheHome: cacheHome)
        #expect(first.status == 0, "\(first.output)\n\(first.errors)")
        #expect(
            first.errors.contains(
                "TracedTests: runs without strace, as Project.swift.md's Untraced test targets"),
            "\(first.errors)")
        #expect(!first.errors.contains("failed under strace"), "it never ran traced: \(first.errors)")
        #expect(
            first.output.contains("2 passed, 0 failed, 0 skipped, 0 suites from cache"), "\(first.output)")
        // PlainTests was traced and stored; TracedTests, untraced, never is.
        let second = try await Self.ribcage(["test", "--cache"], in: folder.url, cacheHome: cacheHome)
        #expect(second.status == 0, "\(second.output)\n\(second.errors)")
        let rows = second.output.split(separator: "\n")
        #expect(
            rows.contains { $0.hasPrefix("PlainTests ") && $0.contains("cached: green at") },
            "\(second.output)")
        #expect(rows.contains { $0.hasPrefix("TracedTests ") && !$0.contains("cached") }, "\(second.output)")
        #expect(
            second.output.contains("1 passed, 0 failed, 0 skipped, 1 suite from cache"), "\(second.output)")
    }
}
