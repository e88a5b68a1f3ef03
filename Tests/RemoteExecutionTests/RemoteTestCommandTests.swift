import Foundation
import RemoteExecution
import RibcagePackage
import Subprocess
import SystemPackage
import Testing

/// `ribcage test --remote-executor`, the built executable, against buildbox-casd and against
/// BuildGrid with two `ribcage worker`s, on loopback, and a package of eight test targets: what
/// runs remotely comes back as a local run's result, what the server answered before comes from
/// its action cache, and what it cannot take or does not answer runs here.
@Suite("ribcage test --remote-executor", .serialized, .timeLimit(.minutes(20)))
struct RemoteTestCommandTests {
    static let sources = [
        "Package.swift": """
        // swift-tools-version: 6.0
        import PackageDescription

        let package = Package(
            name: "Shop",
            targets: [
                .target(name: "Core"),
                .target(name: "Feature", dependencies: ["Core"]),
                .testTarget(name: "CoreTests", dependencies: ["Core"], exclude: ["Fixtures"]),
                .testTarget(name: "FeatureTests", dependencies: ["Feature"]),
                .testTarget(name: "LegacyTests", dependencies: ["Core"]),
                .testTarget(name: "CrashTests"),
                .testTarget(name: "SlowTests"),
                .executableTarget(name: "greet"),
                .testTarget(name: "GreetTests"),
                .testTarget(name: "SplitTests"),
                .testTarget(name: "HomeTests"),
            ])

        """,
        "Sources/Core/Core.swift": "public func base() -> Int { 1 }\n",
        "Sources/Feature/Feature.swift": "import Core\n\npublic func feature() -> Int { base() + 1 }\n",
        "Tests/CoreTests/CoreTests.swift": """
        import Core
        import Foundation
        import Testing

        @Test func adds() { #expect(base() + base() == 2) }

        @Test func readsItsFixture() throws {
            let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Fixtures/value.txt")
            #expect(try String(contentsOf: fixture, encoding: .utf8) == "1\\n")
        }

        """,
        "Tests/CoreTests/Fixtures/value.txt": "1\n",
        "Tests/FeatureTests/FeatureTests.swift": """
        import Feature
        import Testing

        @Test func isPositive() { #expect(feature() > 0) }
        @Test func isThree() { #expect(feature() == 3) }

        """,
        "Tests/LegacyTests/LegacyTests.swift": """
        import Core
        import XCTest

        final class LegacyTests: XCTestCase {
            func testBase() { XCTAssertEqual(base(), 1) }
        }

        """,
        "Tests/CrashTests/CrashTests.swift": """
        import Testing

        @Test func crashes() {
            let numbers: [Int] = []
            #expect(numbers[1] == 0)
        }

        """,
        "Sources/greet/main.swift": "print(\"hello\")\n",
        "Tests/GreetTests/GreetTests.swift": """
        import Foundation
        import Testing

        @Test func greets() throws {
            let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            let process = Process()
            process.executableURL = tests.appendingPathComponent("../../.build/debug/greet").standardizedFileURL
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(String(decoding: output, as: UTF8.self) == "hello\\n")
        }

        """,
        // Keeps a setting under ~, as UserDefaults does: a worker's sandbox has no HOME of its
        // own but the action's.
        "Tests/HomeTests/HomeTests.swift": """
        import Foundation
        import Testing

        @Test func keepsASettingAtHome() throws {
            let home = try #require(ProcessInfo.processInfo.environment["HOME"])
            let setting = URL(fileURLWithPath: home).appendingPathComponent(".config/shop-\\(UUID()).txt")
            try FileManager.default.createDirectory(
                at: setting.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("kept".utf8).write(to: setting)
            defer { try? FileManager.default.removeItem(at: setting) }
            #expect(try String(contentsOf: setting, encoding: .utf8) == "kept")
        }

        """,
        // Two suite types and a free function, for --remote-shards. Each type's test takes two
        // seconds, so two shards on two workers run at the same time.
        "Tests/SplitTests/Shelves.swift": """
        import Testing

        @Suite struct Shelves {
            @Test func holdBooks() async throws {
                try await Task.sleep(for: .seconds(2))
                #expect(Self.capacity == 3)
            }
            @Test(arguments: [1, 2]) func takeRows(count: Int) { #expect(count <= Self.capacity) }
            @Test func stand() { #expect(Self.capacity > 0) }
            static let capacity = 3
        }

        @Test func looseTest() { #expect(Labels.name.count == 5) }

        """,
        "Tests/SplitTests/Labels.swift": """
        import Testing

        struct Labels {
            static let name = "label"
            @Test func print() async throws {
                try await Task.sleep(for: .seconds(2))
                #expect(Self.name.hasPrefix("la"))
            }
        }

        extension Labels {
            @Test func peel() { #expect(!Self.name.isEmpty) }
        }

        // Tests only another system compiles: in three shards, this type's is one that
        // selects no test here.
        struct AppleOnly {
            #if os(macOS)
                @Test func dock() {}
                @Test func menuBar() {}
            #endif
        }

        """,
        "Tests/SlowTests/SlowTests.swift": """
        import Foundation
        import Testing

        @Test func takesItsTime() async throws {
            try await Task.sleep(for: .seconds(25))
        }

        """,
    ]

    /// The `ribcage` binary that `swift build --build-tests` put next to this test bundle.
    static func ribcageExecutable() throws -> String {
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let candidate = URL(fileURLWithPath: testBinary).deletingLastPathComponent()
            .appendingPathComponent("ribcage").path
        guard FileManager.default.isExecutableFile(atPath: candidate) else {
            throw Casd.Failure(description: "ribcage is not built next to the tests at \(candidate)")
        }
        return candidate
    }

    struct Run {
        var status: Int32
        var output: String
        var errors: String

        /// The table's row of `testTarget`: its cells, then its notes.
        func row(_ testTarget: String) -> String? {
            output.split(separator: "\n").first { $0.hasPrefix(testTarget + " ") }.map(String.init)
        }

        /// Passed, failed and skipped from the row of `testTarget`.
        func counts(_ testTarget: String) -> [Int]? {
            row(testTarget).map { row in
                Array(row.split(separator: " ").dropFirst().compactMap { Int($0) }.dropFirst().prefix(3))
            }
        }
    }

    static func ribcage(_ arguments: [String], in package: URL, cacheHome: URL) async throws -> Run {
        var environment = Environment.inherit.updating(["XDG_CACHE_HOME": cacheHome.path])
        environment = environment.updating(["RIBCAGE_CACHE_URL": nil])
        let result = try await Subprocess.run(
            .path(FilePath(try ribcageExecutable())), arguments: Arguments(arguments),
            environment: environment,
            workingDirectory: FilePath(package.path), output: .string(limit: 1 << 22),
            error: .string(limit: 1 << 22))
        let status: Int32 =
            switch result.terminationStatus {
            case .exited(let code): code
            case .signaled(let signal): -signal
            }
        return Run(status: status, output: result.standardOutput, errors: result.standardError)
    }

    static func writePackage() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcage-remote-command-\(UUID().uuidString)", isDirectory: true)
        for (path, text) in sources {
            let file = folder.appendingPathComponent("Shop/" + path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return folder
    }

    /// One package, built once (its builds are most of this suite's time on a loaded machine),
    /// taken through each behaviour in turn; each phase says what it pins down.
    @Test(
        "remote results equal local ones; the action cache answers unchanged suites and a change reruns exactly what it affects; recorded programs reach the action; the test cache on the executor's action cache answers a remote run with a traced run's green, never a local run with a worker's; the Local-only table keeps a suite here; a server that is gone is a warning; --remote-shards splits a target's suites over actions; BuildGrid spreads the suites and one target's shards over two ribcage workers and holds the test cache and gives a killed worker's lease to the other; a worker sent SIGTERM stops its action and exits"
    )
    func remoteRuns() async throws {
        let folder = try Self.writePackage()
        defer { removeRecordingFailure(folder) }
        let package = folder.appendingPathComponent("Shop")
        let cacheHome = folder.appendingPathComponent("cache")
        let everyButSlow = [
            "CoreTests", "FeatureTests", "LegacyTests", "CrashTests", "GreetTests", "SplitTests",
        ]
        let local = try await Self.ribcage(["test"] + everyButSlow, in: package, cacheHome: cacheHome)
        #expect(local.status == 1, "\(local.output)\n\(local.errors)")

        try await Casd.withServer { casd in
            try await Self.remoteEqualsLocal(package, local: local, casd: casd, cacheHome: cacheHome)
            try await Self.recordedProgram(package, casd: casd, cacheHome: cacheHome)
            try await Self.oneTestCache(package, casd: casd, folder: folder)
        }
        try await Self.declaredLocalOnly(package, cacheHome: cacheHome)
        try await Self.serverGone(package, cacheHome: cacheHome)
        try await Self.workerPool(package, local: local, cacheHome: cacheHome)
    }

    /// Remote results equal local ones; a second run is answered by the action cache; a change
    /// reruns exactly what it affects; a crash and a timeout are failures; XCTest suites run here.
    static func remoteEqualsLocal(_ package: URL, local: Run, casd: Casd, cacheHome: URL) async throws {
        let everyButSlow = [
            "CoreTests", "FeatureTests", "LegacyTests", "CrashTests", "GreetTests", "SplitTests",
        ]
        // Built by this run (nothing to do), so green results are kept under their keys.
        let remote = ["--remote-executor", casd.endpoint.description, "--remote-timeout", "8"]
        let first = try await Self.ribcage(["test"] + remote, in: package, cacheHome: cacheHome)
        #expect(first.status == 1, "\(first.output)\n\(first.errors)\n\(casd.log)")
        for testTarget in everyButSlow {
            #expect(first.counts(testTarget) == local.counts(testTarget), "\(first.output)\n\(local.output)")
        }
        // Green and stopped at the timeout: remote results. Red remotely: run here too, and
        // this run's result stands.
        for testTarget in ["CoreTests", "SlowTests", "HomeTests"] {
            #expect(first.row(testTarget)?.hasSuffix("(remote)") == true, "\(first.output)")
        }
        #expect(first.counts("HomeTests") == [1, 0, 0], "\(first.output)")
        for testTarget in ["FeatureTests", "CrashTests", "GreetTests"] {
            #expect(
                first.row(testTarget)?.hasSuffix("(failed remotely, ran here)") == true, "\(first.output)")
        }
        #expect(
            first.errors.contains(
                "FeatureTests failed remotely (FeatureTests/isThree()), so it runs here too"))
        #expect(
            first.errors.contains("CrashTests failed remotely (CrashTests (test run)), so it runs here too"))
        // Nothing recorded yet: the program the suite starts is not in its action.
        #expect(first.errors.contains("GreetTests failed remotely and passed here"), "\(first.errors)")
        #expect(first.row("LegacyTests")?.contains("remote") == false, "\(first.output)")
        #expect(
            first.errors.contains(
                "LegacyTests runs here: Tests/LegacyTests/LegacyTests.swift imports XCTest"),
            "\(first.errors)")
        #expect(first.output.contains("FeatureTests/isThree()"), "\(first.output)")
        #expect(first.output.contains("FeatureTests.swift:5"), "the issue's file and line: \(first.output)")
        #expect(first.output.contains("timeout and was stopped"), "the timeout: \(first.output)")
        let crashLog = try String(
            contentsOfFile: try #require(
                first.output.split(separator: " ").first { $0.hasSuffix("CrashTests-remote.log,") }.map {
                    String($0.dropLast())
                }, "\(first.output)"), encoding: .utf8)
        #expect(crashLog.contains("Index out of range"), "the crash, in the remote run's log: \(crashLog)")

        // Unchanged: the green suite comes from the action cache; the red one runs again, on the
        // worker (a server that keeps red results is asked to run it anew) and here.
        let second = try await Self.ribcage(
            ["test", "CoreTests", "FeatureTests"] + remote, in: package, cacheHome: cacheHome)
        #expect(
            second.row("CoreTests")?.hasSuffix("(remote, from the action cache)") == true, "\(second.output)")
        #expect(
            second.row("FeatureTests")?.hasSuffix("(failed remotely, ran here)") == true, "\(second.output)")

        // A change to Feature rebuilds the one test bundle, yet only FeatureTests runs again.
        try Data("import Core\n\npublic func feature() -> Int { base() + 2 }\n".utf8).write(
            to: package.appendingPathComponent("Sources/Feature/Feature.swift"))
        let changed = try await Self.ribcage(
            ["test", "CoreTests", "FeatureTests"] + remote, in: package, cacheHome: cacheHome)
        #expect(changed.status == 0, "\(changed.output)\n\(changed.errors)")
        #expect(
            changed.row("CoreTests")?.hasSuffix("(remote, from the action cache)") == true,
            "\(changed.output)")
        #expect(changed.row("FeatureTests")?.hasSuffix("(remote)") == true, "\(changed.output)")
        #expect(changed.counts("FeatureTests") == [2, 0, 0], "\(changed.output)")
        let again = try await Self.ribcage(
            ["test", "CoreTests", "FeatureTests", "--skip-build"] + remote, in: package, cacheHome: cacheHome)
        #expect(again.status == 0, "\(again.output)\n\(again.errors)")
        #expect(
            again.output.split(separator: "\n").filter { $0.hasSuffix("(remote, from the action cache)") }
                .count == 2,
            "\(again.output)")

        // Sharded, SplitTests is two actions: Shelves (three tests, the heavier) in the first,
        // and Labels with the free function in the last, which takes what no other shard names. Together they give the local counts,
        // and the next run finds both in the action cache.
        let reports = package.deletingLastPathComponent().appendingPathComponent("split-reports")
        let sharded =
            [
                "test", "SplitTests", "--skip-build", "--remote-shards", "2", "--reports-directory",
                reports.path,
            ]
            + remote
        let split = try await Self.ribcage(sharded, in: package, cacheHome: cacheHome)
        #expect(split.status == 0, "\(split.output)\n\(split.errors)")
        #expect(split.errors.contains("Running 1 test target in 2 actions"), "\(split.errors)")
        #expect(split.row("SplitTests")?.hasSuffix("(remote)") == true, "\(split.output)")
        #expect(split.counts("SplitTests") == local.counts("SplitTests"), "\(split.output)\n\(local.output)")
        let shardLogs = try (1...2).map { index in
            try String(
                contentsOf: reports.appendingPathComponent("SplitTests-shard-\(index)-of-2-remote.log"),
                encoding: .utf8)
        }
        #expect(shardLogs[0].contains("holdBooks()") && !shardLogs[0].contains("peel()"), "\(shardLogs[0])")
        #expect(
            shardLogs[1].contains("peel()") && shardLogs[1].contains("looseTest()")
                && !shardLogs[1].contains("holdBooks()"), "\(shardLogs[1])")
        let splitAgain = try await Self.ribcage(sharded, in: package, cacheHome: cacheHome)
        #expect(
            splitAgain.row("SplitTests")?.hasSuffix("(remote, from the action cache)") == true,
            "\(splitAgain.output)")
        #expect(splitAgain.counts("SplitTests") == local.counts("SplitTests"), "\(splitAgain.output)")

        // In three, AppleOnly's shard selects no test on Linux (Swift Testing exits 69): that
        // is no failure, since the others hold every test that runs here.
        let three = try await Self.ribcage(
            ["test", "SplitTests", "--skip-build", "--remote-shards", "3"] + remote, in: package,
            cacheHome: cacheHome)
        #expect(three.status == 0, "\(three.output)\n\(three.errors)")
        #expect(three.errors.contains("Running 1 test target in 3 actions"), "\(three.errors)")
        #expect(three.row("SplitTests")?.hasSuffix("(remote)") == true, "\(three.output)\n\(three.errors)")
        #expect(three.counts("SplitTests") == local.counts("SplitTests"), "\(three.output)")
    }

    /// A suite that starts the package's own program fails on a worker until a traced run
    /// records it; then its action holds the program and it passes there.
    static func recordedProgram(_ package: URL, casd: Casd, cacheHome: URL) async throws {
        let traced = try await Self.ribcage(
            ["test", "GreetTests", "--cache", "--skip-build"], in: package, cacheHome: cacheHome)
        #expect(traced.status == 0, "\(traced.output)\n\(traced.errors)")
        let recorded = try await Self.ribcage(
            ["test", "GreetTests", "--skip-build", "--remote-executor", casd.endpoint.description],
            in: package,
            cacheHome: cacheHome)
        #expect(recorded.status == 0, "\(recorded.output)\n\(recorded.errors)")
        #expect(
            recorded.row("GreetTests")?.hasSuffix("(remote)") == true,
            "\(recorded.output)\n\(recorded.errors)")
    }

    /// The test cache on the executor's own action cache and CAS: a traced green run here,
    /// shared through `--cache-url grpc://…`, answers a remote run with `--cache` on another
    /// cache folder without anything sent. A green on a worker is never a test cache entry: the
    /// worker saw only its action's inputs, so a run here elsewhere runs the suite.
    static func oneTestCache(_ package: URL, casd: Casd, folder: URL) async throws {
        let server = casd.endpoint.description
        let here = try await Self.ribcage(
            ["test", "GreetTests", "--cache-url", server, "--skip-build"], in: package,
            cacheHome: folder.appendingPathComponent("cache-here"))
        #expect(here.status == 0, "\(here.output)\n\(here.errors)")
        #expect(here.row("GreetTests")?.contains("cached") == false, "\(here.output)")
        let remote = try await Self.ribcage(
            ["test", "GreetTests", "--cache", "--remote-executor", server, "--skip-build"], in: package,
            cacheHome: folder.appendingPathComponent("cache-remote"))
        #expect(remote.status == 0, "\(remote.output)\n\(remote.errors)")
        #expect(remote.row("GreetTests")?.contains("cached: green") == true, "\(remote.output)")
        #expect(!remote.errors.contains("Running 1 test target"), "\(remote.errors)")

        // CoreTests green on the worker (or from its stand-in), then on another machine with the
        // same shared store and no executor: it runs here.
        let onWorker = try await Self.ribcage(
            ["test", "CoreTests", "--cache", "--remote-executor", server], in: package,
            cacheHome: folder.appendingPathComponent("cache-worker"))
        #expect(onWorker.status == 0, "\(onWorker.output)\n\(onWorker.errors)")
        #expect(onWorker.row("CoreTests")?.contains("(remote") == true, "\(onWorker.output)")
        #expect(!onWorker.errors.contains("not stored"), "\(onWorker.errors)")
        let elsewhere = try await Self.ribcage(
            ["test", "CoreTests", "--cache-url", server, "--skip-build"], in: package,
            cacheHome: folder.appendingPathComponent("cache-elsewhere"))
        #expect(elsewhere.status == 0, "\(elsewhere.output)\n\(elsewhere.errors)")
        #expect(elsewhere.counts("CoreTests") == [2, 0, 0], "\(elsewhere.output)")
        #expect(elsewhere.row("CoreTests")?.contains("cached") == false, "\(elsewhere.output)")
    }

    /// A test target Project.swift.md lists as local-only runs here, saying why.
    static func declaredLocalOnly(_ package: URL, cacheHome: URL) async throws {
        let manifest = package.appendingPathComponent("Project.swift.md")
        try Data(
            """
            ## Local-only test targets

            | Test target | Why it runs here |
            |-------------|------------------|
            | `CoreTests` | Its fixture is too large to upload |

            """.utf8
        ).write(to: manifest)
        defer { removeRecordingFailure(manifest) }
        // Every selected suite stays here, so the server is never asked: none need listen.
        let run = try await Self.ribcage(
            ["test", "CoreTests", "--skip-build", "--remote-executor", "grpc://127.0.0.1:9"], in: package,
            cacheHome: cacheHome)
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        #expect(
            run.errors.contains(
                "CoreTests runs here: Project.swift.md's Local-only test targets lists it: Its fixture is too large to upload"
            ), "\(run.errors)")
        #expect(run.counts("CoreTests") == [2, 0, 0], "\(run.output)")
        #expect(!run.errors.contains("unreachable"), "\(run.errors)")
    }

    /// A server that is not there, or dies mid-run, is a warning: the suites it did not answer
    /// run here.
    static func serverGone(_ package: URL, cacheHome: URL) async throws {
        // Nothing listens on a port casd just left.
        let vacated = try await Casd.withServer { $0.endpoint.description }
        let nobody = try await Self.ribcage(
            ["test", "CoreTests", "LegacyTests", "--skip-build", "--remote-executor", vacated], in: package,
            cacheHome: cacheHome)
        #expect(nobody.status == 0, "\(nobody.output)\n\(nobody.errors)")
        #expect(nobody.errors.contains("unreachable"), "\(nobody.errors)")
        #expect(nobody.errors.contains("run here"), "\(nobody.errors)")
        #expect(nobody.counts("CoreTests") == [2, 0, 0], "\(nobody.output)")
        #expect(nobody.row("CoreTests")?.contains("remote") == false, "\(nobody.output)")

        // casd killed while SlowTests runs on it: SlowTests runs here instead, and passes.
        try await Casd.withServer { casd in
            async let run = Self.ribcage(
                ["test", "SlowTests", "--skip-build", "--remote-executor", casd.endpoint.description],
                in: package,
                cacheHome: cacheHome)
            try await Self.waitForProcess(running: "^SlowTests\\.", below: [casd.processGroup])
            casd.kill()
            let killed = try await run
            #expect(killed.status == 0, "\(killed.output)\n\(killed.errors)")
            #expect(killed.errors.contains("connection to the REAPI server lost"), "\(killed.errors)")
            #expect(killed.counts("SlowTests") == [1, 0, 0], "\(killed.output)")
            #expect(killed.row("SlowTests")?.contains("remote") == false, "\(killed.output)")
        }
    }

    /// BuildGrid with two `ribcage worker`s: the suites spread over both and come back as
    /// they do from casd; a worker killed mid-action loses its lease to the other, and the run
    /// stays correct.
    static func workerPool(_ package: URL, local: Run, cacheHome: URL) async throws {
        try await BuildGrid.withPool(workers: 2, ribcage: try ribcageExecutable()) { grid, workers in
            let remote = ["--skip-build", "--remote-executor", grid.endpoint.description]
            // SlowTests holds one worker until its 8 s timeout, so the others go to the second.
            let spread = try await Self.ribcage(
                [
                    "test", "CoreTests", "FeatureTests", "GreetTests", "SlowTests", "HomeTests",
                    "--remote-jobs", "4", "--remote-timeout", "8",
                ] + remote, in: package, cacheHome: cacheHome)
            let logs = workers.map(\.log).joined(separator: "\n")
            #expect(spread.status == 1, "\(spread.output)\n\(spread.errors)\n\(logs)")
            // HomeTests' empty home folder comes from BuildGrid's storage through a worker here.
            for testTarget in ["CoreTests", "FeatureTests", "GreetTests", "SlowTests", "HomeTests"] {
                #expect(spread.row(testTarget)?.hasSuffix("(remote)") == true, "\(spread.output)\n\(logs)")
            }
            #expect(spread.counts("CoreTests") == [2, 0, 0], "\(spread.output)")
            #expect(spread.counts("FeatureTests") == [2, 0, 0], "\(spread.output)")
            #expect(
                spread.output.contains("timeout and was stopped"), "the timeout: \(spread.output)\n\(logs)")
            for worker in workers {
                #expect(worker.log.contains("ran: exit code"), "\(worker.name) ran nothing:\n\(logs)")
            }

            // One test target's two shards, each holding a worker for two seconds, go one to each.
            let leasesBefore = workers.map { $0.log.components(separatedBy: "ran: exit code").count }
            let shards = try await Self.ribcage(
                ["test", "SplitTests", "--remote-shards", "2", "--remote-jobs", "2"] + remote, in: package,
                cacheHome: cacheHome)
            let shardLogs = workers.map(\.log).joined(separator: "\n")
            #expect(shards.status == 0, "\(shards.output)\n\(shards.errors)\n\(shardLogs)")
            #expect(shards.row("SplitTests")?.hasSuffix("(remote)") == true, "\(shards.output)\n\(shardLogs)")
            #expect(shards.counts("SplitTests") == local.counts("SplitTests"), "\(shards.output)")
            for (worker, before) in zip(workers, leasesBefore) {
                #expect(
                    worker.log.components(separatedBy: "ran: exit code").count == before + 1,
                    "\(worker.name) did not run one shard:\n\(shardLogs)")
            }

            // The test cache on BuildGrid's action cache and CAS: a traced green run here is
            // stored there, and a run from an empty cache folder finds it.
            let shared = ["test", "CoreTests", "--skip-build", "--cache-url", grid.endpoint.description]
            let stored = try await Self.ribcage(
                shared, in: package, cacheHome: cacheHome.appendingPathComponent("grid-stored"))
            #expect(stored.status == 0, "\(stored.output)\n\(stored.errors)")
            let found = try await Self.ribcage(
                shared, in: package, cacheHome: cacheHome.appendingPathComponent("grid-found"))
            #expect(
                found.row("CoreTests")?.contains("cached: green") == true, "\(found.output)\n\(found.errors)")

            // The worker running SlowTests dies with its runner; after BuildGrid's bot timeout the
            // other takes the same lease, and the run passes.
            async let run = Self.ribcage(
                ["test", "SlowTests", "--remote-timeout", "120"] + remote, in: package, cacheHome: cacheHome)
            let bundle = try await Self.waitForProcess(
                running: "^SlowTests\\.", below: workers.map(\.processGroup))
            let holder = try #require(
                workers.first { Self.ancestors(of: bundle).contains($0.processGroup) },
                "no worker started process \(bundle):\n\(workers.map(\.log).joined(separator: "\n"))")
            let lease = try #require(Self.lastLease(taken: holder.log), "\(holder.log)")
            holder.kill()
            let survived = try await run
            let other = try #require(workers.first { $0.name != holder.name })
            #expect(
                survived.status == 0,
                "\(survived.output)\n\(survived.errors)\n\(other.log)\n\(grid.log.suffix(4_000))")
            #expect(survived.row("SlowTests")?.hasSuffix("(remote)") == true, "\(survived.output)")
            #expect(survived.counts("SlowTests") == [1, 0, 0], "\(survived.output)")
            #expect(other.log.contains("lease \(lease) ran: exit code 0"), "\(other.log)")

            // The other worker, sent SIGTERM alone while it runs SlowTests (a new timeout: a new
            // action, not BuildGrid's cached one), stops the action, waits for its runner and
            // exits 0; the test process in the sandbox is gone with it.
            let client = Task {
                try await Self.ribcage(
                    ["test", "SlowTests", "--remote-timeout", "121"] + remote, in: package,
                    cacheHome: cacheHome)
            }
            let running = try await Self.waitForProcess(
                running: "^SlowTests\\.", below: workers.map(\.processGroup))
            #expect(Self.ancestors(of: running).contains(other.processGroup), "\(other.log)")
            other.terminate()
            #expect(await other.exitStatus(within: 60) == 0, "\(other.log)")
            #expect(try await Self.processEnds(running, within: 10), "its test process outlived it")
            #expect(other.log.contains("stopped; the actions it ran were stopped first"), "\(other.log)")
            // No worker is left to run it: the client is stopped too.
            client.cancel()
            _ = await client.result
        }
    }

    /// The lease a worker's log last says it took.
    static func lastLease(taken log: String) -> String? {
        log.split(separator: "\n").last { $0.hasSuffix(" taken") }.flatMap { line in
            line.split(separator: " ").dropLast().last.map(String.init)
        }
    }

    /// The process IDs above `pid`, its parent first.
    static func ancestors(of pid: Int32) -> [Int32] {
        ProcessTable.current().ancestors(of: pid)
    }

    /// Whether process `pid` is gone (reaped by whoever its parent is) within `seconds`.
    static func processEnds(_ pid: Int32, within seconds: Int) async throws -> Bool {
        for _ in 0..<(seconds * 10) {
            if !FileManager.default.fileExists(atPath: "/proc/\(pid)") { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// Returns the process ID of a test bundle whose command line holds `argument` once one
    /// runs below one of `parents` (a server or the workers; anywhere when empty); throws after
    /// two minutes. Only below them: a process of an earlier step, or of another run on the
    /// machine, must not pass for this one's.
    @discardableResult
    static func waitForProcess(running argument: String, below parents: [pid_t] = []) async throws -> Int32 {
        for _ in 0..<1_200 {
            let table = ProcessTable.current()
            for process in table.processes {
                // A process that ended meanwhile has no arguments left.
                guard let arguments = ProcessTable.arguments(of: process.id) else { continue }
                // The bundle itself, not the sandbox that starts it (which names it too): killed
                // while it sets up, a sandbox could be left waiting.
                if arguments.first?.hasSuffix(".xctest") == true, arguments.contains(argument),
                    parents.isEmpty || !Set(table.ancestors(of: process.id)).isDisjoint(with: parents)
                {
                    return process.id
                }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Casd.Failure(description: "no process ran with \(argument) within two minutes")
    }
}
