import Foundation
import RibcagePackage
import RibcageTesting
import Testing

/// `ribcage test --cache` against a real nginx from Debian, on a tiny generated package.
///
/// The package is tiny on purpose: what is under test is the cache (keys, the Bazel protocol
/// over a real server, fresh clones, damaged entries, a dead server), and a three-module package
/// shows every one of those in about a minute of CI, where this workspace would take ten.
@Suite("ribcage test --cache with nginx", .serialized)
struct TestCacheEndToEndTests {
    static let testTargets: Set<String> = ["CoreTests", "FeatureTests", "OtherTests"]

    /// Core ← Feature, and Other. CoreTests fails while `TINY_FAIL` is set, a variable the
    /// package does not declare as a test input: the same inputs, red once, green once.
    static func makeTinyPackage() async throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(name: "Tiny", targets: [
                .target(name: "Core"),
                .target(name: "Feature", dependencies: ["Core"]),
                .target(name: "Other"),
                .testTarget(name: "CoreTests", dependencies: ["Core"]),
                .testTarget(name: "FeatureTests", dependencies: ["Feature"]),
                .testTarget(name: "OtherTests", dependencies: ["Other"]),
            ])
            """, to: "Package.swift")
        try folder.write("public let core = 1\n", to: "Sources/Core/Core.swift")
        try folder.write(
            "import Core\npublic let feature = core + 1\n", to: "Sources/Feature/Feature.swift")
        try folder.write("public let other = 3\n", to: "Sources/Other/Other.swift")
        try folder.write(
            """
            import Core
            import Foundation
            import Testing
            @Test func core() {
                #expect(ProcessInfo.processInfo.environment["TINY_FAIL"] == nil, "TINY_FAIL is set")
                #expect(Core.core == 1)
            }
            """, to: "Tests/CoreTests/CoreTests.swift")
        try folder.write(
            "import Feature\nimport Testing\n@Test func feature() { #expect(Feature.feature == 2) }\n",
            to: "Tests/FeatureTests/FeatureTests.swift")
        try folder.write(
            "import Other\nimport Testing\n@Test func other() { #expect(Other.other == 3) }\n",
            to: "Tests/OtherTests/OtherTests.swift")
        try folder.write(".build/\n", to: ".gitignore")
        try await PackageFixtures.commitEverything(in: folder.url, message: "Tiny")
        return folder
    }

    struct Run {
        var status: Int32
        var output: String
        var errors: String

        /// The test targets shown as cached, and those that ran.
        var cached: Set<String> { targets { $0.contains("cached: green at") } }
        var ran: Set<String> { targets { !$0.contains("cached: green at") } }

        private func targets(_ matching: (Substring) -> Bool) -> Set<String> {
            Set(
                output.split(separator: "\n").compactMap { line in
                    let name = String(line.prefix { $0 != " " })
                    return TestCacheEndToEndTests.testTargets.contains(name) && matching(line) ? name : nil
                })
        }
    }

    static func ribcage(
        _ arguments: [String], in folder: URL, cacheHome: URL, failing: Bool = false
    ) async throws -> Run {
        let result = try await Shell.run(
            try await RibcageExecutableTests.ribcageExecutable().path, arguments, in: folder,
            environment: ["XDG_CACHE_HOME": cacheHome.path, "TINY_FAIL": failing ? "1" : nil])
        return Run(status: result.status, output: result.outputText, errors: result.errorText)
    }

    @Test(
        "shards share a server; a fresh clone runs nothing; a change reruns its dependents; a dead, slow or damaged cache only warns"
    )
    func scenarios() async throws {
        let origin = try await Self.makeTinyPackage()
        let caches = try TemporaryFolder()
        func freshCacheHome() -> URL {
            caches.url.appendingPathComponent(UUID().uuidString, isDirectory: true)
        }
        var nginxProcess: Int32 = 0

        try await NginxWebDAV.withServer { nginx in
            // Credentials in the URL must reach the server as Basic auth and no log line.
            let cacheURL = "http://ci:s3cret-token@127.0.0.1:\(nginx.port)/ribcage"
            let pidText = try String(
                contentsOf: nginx.folder.appendingPathComponent("nginx.pid"), encoding: .utf8)
            nginxProcess = Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            var everything = ""

            // Run 1, as two CI shards on two "machines" (separate local caches), with CoreTests red.
            let first = try await Self.ribcage(
                ["test", "--cache-url", cacheURL, "--shard", "1/2"], in: origin.url,
                cacheHome: freshCacheHome(),
                failing: true)
            let second = try await Self.ribcage(
                ["test", "--cache-url", cacheURL, "--shard", "2/2", "--skip-build"], in: origin.url,
                cacheHome: freshCacheHome(), failing: true)
            everything += first.output + first.errors + second.output + second.errors
            #expect(first.ran.union(second.ran) == Self.testTargets, "\(first.output)\n\(second.output)")
            #expect(first.ran.isDisjoint(with: second.ran))
            #expect(first.cached.isEmpty && second.cached.isEmpty)
            #expect([first.status, second.status].sorted() == [0, 1], "only CoreTests' shard fails")
            let acEntries = try FileManager.default.contentsOfDirectory(
                atPath: nginx.store.appendingPathComponent("ribcage/ac").path)
            #expect(
                acEntries.count == 3,
                "FeatureTests and OtherTests are stored, red CoreTests only in its key's red slot")

            // The same inputs again, now green: CoreTests runs (red is never cached), the others don't.
            let againHome = freshCacheHome()
            let again = try await Self.ribcage(
                ["test", "--cache-url", cacheURL, "--skip-build"], in: origin.url, cacheHome: againHome)
            everything += again.output + again.errors
            #expect(again.status == 0, "\(again.output)\n\(again.errors)")
            #expect(again.ran == ["CoreTests"])
            #expect(again.cached == ["FeatureTests", "OtherTests"])
            #expect(
                again.output.contains("1 passed, 0 failed, 0 skipped, 2 suites from cache"),
                "\(again.output)")
            // Red on one machine, green on another, the same key: flaky, with no retry.
            #expect(
                again.errors.contains("CoreTests/core() is flaky: it passed and failed with the same inputs"),
                "\(again.errors)")
            let flaky = try await Self.ribcage(["flaky"], in: origin.url, cacheHome: againHome)
            #expect(
                flaky.output.split(separator: "\n").dropFirst().first?.hasPrefix("CoreTests/core()") == true)

            // Run 2: a fresh clone of the same commit, an empty local cache: nothing runs or builds.
            let clones = try TemporaryFolder()
            let clone = clones.url.appendingPathComponent("Tiny", isDirectory: true)
            let cloned = try await Shell.run("git", ["clone", "-q", origin.url.path, clone.path])
            try #require(cloned.succeeded, "\(cloned.errorText)")
            let cloneHome = freshCacheHome()
            let fresh = try await Self.ribcage(
                ["test", "--cache-url", cacheURL], in: clone, cacheHome: cloneHome)
            everything += fresh.output + fresh.errors
            #expect(fresh.status == 0, "\(fresh.output)\n\(fresh.errors)")
            #expect(fresh.ran.isEmpty)
            #expect(fresh.cached == Self.testTargets)
            #expect(fresh.output.contains("0 passed, 0 failed, 0 skipped, 3 suites from cache"))
            #expect(!fresh.errors.contains("Building tests"), "a fully cached run builds nothing")
            let commit = try await Shell.run("git", ["rev-parse", "--short", "HEAD"], in: clone)
            #expect(
                fresh.output.contains(
                    "cached: green at \(commit.outputText.trimmingCharacters(in: .whitespacesAndNewlines)) on "
                ))

            // A one-line change in Core: --explain-cache names it, and CoreTests and FeatureTests
            // (which depends on Core) run again while OtherTests stays cached.
            try origin.write("public let core = 1  // one line changed\n", to: "Sources/Core/Core.swift")
            let explained = try await Self.ribcage(
                ["test", "--explain-cache", "Core", "--cache-url", cacheURL], in: origin.url,
                cacheHome: againHome)
            #expect(explained.status == 0, "\(explained.output)\n\(explained.errors)")
            #expect(explained.output.contains("not in the cache"), "\(explained.output)")
            #expect(
                explained.output.contains("    ~ file Sources/Core/Core.swift\n"), "\(explained.output)")
            // FeatureTests tests Feature, which depends on Core: its key changed through Core.
            let transitive = try await Self.ribcage(
                ["test", "--explain-cache", "FeatureTests"], in: origin.url, cacheHome: againHome)
            #expect(
                transitive.output.contains("    ~ file Sources/Core/Core.swift\n"), "\(transitive.output)")
            let changed = try await Self.ribcage(
                ["test", "--cache-url", cacheURL], in: origin.url, cacheHome: freshCacheHome())
            everything += changed.output + changed.errors + explained.output + explained.errors
            #expect(changed.status == 0, "\(changed.output)\n\(changed.errors)")
            #expect(changed.ran == ["CoreTests", "FeatureTests"])
            #expect(changed.cached == ["OtherTests"])

            // nginx stops: every suite runs, with one warning, and the run is green.
            await nginx.stop()
            let dead = try await Self.ribcage(
                ["test", "--cache-url", cacheURL, "--skip-build"], in: origin.url,
                cacheHome: freshCacheHome())
            everything += dead.output + dead.errors
            #expect(dead.status == 0, "\(dead.output)\n\(dead.errors)")
            #expect(dead.ran == Self.testTargets)
            #expect(dead.errors.contains("unreachable"), "\(dead.errors)")
            #expect(
                dead.errors.components(separatedBy: "unreachable").count == 2,
                "one warning, not one per suite")

            // A truncated blob on the server: OtherTests runs, the others come from the cache.
            try await nginx.start()
            let otherKey = try #require(
                explainedKey(
                    try await Self.ribcage(
                        ["test", "--explain-cache", "OtherTests"], in: clone, cacheHome: cloneHome)))
            let action = try ActionResult(
                serialized: try Data(
                    contentsOf: nginx.store.appendingPathComponent("ribcage/ac/\(otherKey)")))
            let blob = nginx.store.appendingPathComponent(
                "ribcage/cas/\(try #require(action.outputFiles.first).hash)")
            try Data(try Data(contentsOf: blob).prefix(40)).write(to: blob)
            let damaged = try await Self.ribcage(
                ["test", "--cache-url", cacheURL, "--skip-build"], in: origin.url,
                cacheHome: freshCacheHome())
            everything += damaged.output + damaged.errors
            #expect(damaged.status == 0, "\(damaged.output)\n\(damaged.errors)")
            #expect(damaged.ran == ["OtherTests"])
            #expect(damaged.cached == ["CoreTests", "FeatureTests"])
            #expect(damaged.errors.contains("damaged entry"), "\(damaged.errors)")

            // A slow server (one byte a second) is bounded by --cache-timeout.
            let clock = ContinuousClock()
            let start = clock.now
            let slow = try await Self.ribcage(
                [
                    "test", "--cache-url", "http://127.0.0.1:\(nginx.port)/slow/ribcage", "--cache-timeout",
                    "1",
                    "--skip-build", "OtherTests",
                ], in: origin.url, cacheHome: freshCacheHome())
            #expect(slow.status == 0, "\(slow.output)\n\(slow.errors)")
            #expect(slow.ran == ["OtherTests"])
            #expect(slow.errors.contains("no answer within"), "\(slow.errors)")
            #expect(clock.now - start < .seconds(60))

            #expect(!everything.contains("s3cret-token"), "credentials leaked into the output")
        }
        #expect(nginxProcess > 0)
        #expect(kill(nginxProcess, 0) != 0, "nginx is still running after the test")
    }

    /// The key `--explain-cache` printed.
    func explainedKey(_ run: Run) -> String? {
        run.output.split(separator: "\n").first { $0.hasPrefix("  key ") }.map {
            String($0.dropFirst(6))
        }
    }
}
