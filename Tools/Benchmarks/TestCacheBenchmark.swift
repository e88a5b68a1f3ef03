import ArgumentParser
import BlockingWork
import Foundation
import RibcagePackage
import RibcageTesting

/// `bench test-cache`: what `ribcage test --cache` costs and saves.
///
/// 1. The keys of every suite of the generated 500-module package (`bench graph`'s), against
///    `swift package describe` on the same package, which every `ribcage test` already runs.
/// 2. This workspace's `ribcage test`, uncached, against a warm, unchanged second run of
///    `ribcage test --cache`, in one run of the benchmark, with a throwaway local cache.
struct TestCacheBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-cache",
        abstract:
            "Test-cache keys of a generated 500-module package against swift package describe; a warm ribcage test --cache against an uncached run."
    )

    @Option(help: "Modules in the generated package.")
    var modules = 500

    /// Nine by default: a look-up takes some 30 ms, and on a shared machine a median of three
    /// moved by a third from one run to the next.
    @Option(help: "Repetitions of the key and look-up measurements; the median is reported.")
    var repetitions = 9

    @Option(help: "The workspace whose tests run uncached and cached (default: the current folder).")
    var workspace: String?

    @Flag(help: "Only the key measurement on the generated package.")
    var keysOnly = false

    func run() async throws {
        #if DEBUG
            print(
                "warning: this is a debug build; run `swift run -c release bench test-cache` for real figures."
            )
        #endif
        try await measureKeys()
        if !keysOnly {
            try await ScratchFolder.with(prefix: "bench-test-cache-home") {
                try await measureWarmRun(cacheHome: $0)
            }
        }
    }

    private func measureKeys() async throws {
        try await ScratchFolder.with(prefix: "bench-test-cache") { try await measureKeys(packageAt: $0) }
    }

    /// The file work here blocks (writing the package, hashing its files): it runs on threads of
    /// its own, off the cooperative pool, as `ribcage test --cache` computes its keys.
    private func measureKeys(packageAt root: URL) async throws {
        var generator = GraphBenchmark()
        generator.modules = modules
        try await DedicatedThread.run(named: "bench-test-cache-package") { [generator] in
            try generator.generatePackage(at: root, withProducts: false)
        }
        let package = try await PackageLoader.load(packageAt: root, note: { print($0) })
        let testTargets = package.targets.filter(\.isTest).map(\.name)

        let describe = try await Measurement.median(repetitions: repetitions) {
            _ = try await Shell.run("swift", ["package", "describe", "--type", "json"], in: root)
        }
        let version = try await Shell.run("swift", ["--version"])
        let toolchain = version.outputText
        // What --cache adds to a run once the package is read: the shared inputs and every
        // suite's key (the files of 1,000 targets hashed). `swift --version` is timed apart.
        let (keys, distinct) = try await DedicatedThread.run(named: "bench-test-cache-keys") {
            [repetitions] in
            var distinct = 0
            let keys = try Measurement.median(repetitions: repetitions) {
                let inputs = try TestCacheInputs(
                    root: root, package: package, toolchain: toolchain, configuration: "debug",
                    flags: TestCacheSession.testFlags, environment: ProcessInfo.processInfo.environment,
                    declaredVariables: try TestCacheInputs.declaredVariables(packageAt: root))
                distinct = Set(try inputs.keys(for: testTargets).values.map(\.hash)).count
            }
            return (keys, distinct)
        }
        let swiftVersion = try await Measurement.median(repetitions: repetitions) {
            _ = try await Shell.run("swift", ["--version"])
        }
        print(
            "Test-cache keys: a generated package of \(modules) modules and \(testTargets.count) test targets, median of \(repetitions)\n"
        )
        print("swift package describe alone:         \(Measurement.milliseconds(describe))")
        print(
            "keys of all \(testTargets.count) suites (\(distinct) distinct): \(Measurement.milliseconds(keys))  (\(String(format: "%.1f", keys / describe * 100))% of describe; the goal is under 10%)"
        )
        print(
            "and one swift --version per run:     \(Measurement.milliseconds(swiftVersion))  (\(String(format: "%.1f", swiftVersion / describe * 100))% of describe)"
        )
        let lookup = try await measureLookUp(packageAt: root, package: package, toolchain: toolchain)
        print(
            "look-up of all \(testTargets.count) suites, recorded inputs checked: \(Measurement.milliseconds(lookup.seconds))  (\(String(format: "%.1f", lookup.seconds / describe * 100))% of describe; the goal is under 10%)"
        )
        print("  (\(lookup.hits) hits; each entry records \(lookup.recordedPerEntry))")
    }

    /// What `ribcage test --cache` does before it runs anything, once every suite has a stored
    /// entry (``TestCacheSession/lookUp(_:warn:)``): the keys, then each suite's entry read from
    /// the local store and each input its run recorded digested again. The entries record what
    /// a traced run of such a suite reads: its test file and its folder's listing, and, for one
    /// suite in ten, a program of the package it started (digested by its module's sources, the
    /// costliest kind).
    private func measureLookUp(packageAt root: URL, package: DescribedPackage, toolchain: String) async throws
        -> (seconds: Double, hits: Int, recordedPerEntry: String)
    {
        let testTargets = package.targets.filter(\.isTest).map(\.name)
        @Sendable func makeInputs() throws -> TestCacheInputs {
            try TestCacheInputs(
                root: root, package: package, toolchain: toolchain, configuration: "debug",
                flags: TestCacheSession.testFlags, environment: ProcessInfo.processInfo.environment,
                declaredVariables: try TestCacheInputs.declaredVariables(packageAt: root))
        }
        let cache = TestCache(
            local: LocalBlobStore(folder: root.appendingPathComponent(".bench-cache", isDirectory: true)),
            remote: nil, warn: { print($0) })
        let inputs = try await DedicatedThread.run(named: "bench-test-cache-keys") { try makeInputs() }
        let keys = try await inputs.keysOffThePool(for: testTargets, withParts: true)
        for (index, testTarget) in testTargets.enumerated() {
            guard let key = keys[testTarget] else { continue }
            let module = String(testTarget.dropLast("Tests".count))
            var recorded = [
                RecordedInput(kind: .file, path: "Tests/\(testTarget)/\(testTarget).swift", digest: ""),
                RecordedInput(kind: .listing, path: "Tests/\(testTarget)", digest: ""),
            ]
            if index % 10 == 0 { recorded.append(RecordedInput(kind: .product, path: module, digest: "")) }
            for item in recorded.indices { recorded[item].digest = recorded[item].currentDigest(in: inputs) }
            await cache.record(
                TestCacheEntry(
                    testTarget: testTarget, key: key, passed: 1, skipped: 0, seconds: 0.01, commit: nil,
                    host: "bench", date: Date(), recordedInputs: recorded))
        }
        var hits = 0
        let seconds = try await Measurement.median(repetitions: repetitions) {
            let inputs = try await DedicatedThread.run(named: "bench-test-cache-keys") { try makeInputs() }
            let session = TestCacheSession(
                cache: cache, inputs: inputs, commit: nil, host: "bench", warn: { print($0) })
            hits = try await session.lookUp(testTargets).hits.count
        }
        try await printLookUpPhases(testTargets: testTargets, cache: cache, makeInputs: makeInputs)
        return (seconds, hits, "a file and a listing, and one suite in ten a program")
    }

    /// Where a look-up's time goes: the phases of ``TestCacheSession/lookUp(_:warn:)`` timed
    /// one by one (each the median of the repetitions), so a change is aimed at the largest.
    private func printLookUpPhases(
        testTargets: [String], cache: TestCache, makeInputs: @escaping @Sendable () throws -> TestCacheInputs
    ) async throws {
        var inputs = try await DedicatedThread.run(named: "bench-test-cache-keys") { try makeInputs() }
        var keys: [String: TestCacheKey] = [:]
        var entries: [String: TestCacheEntry] = [:]
        var latestNoted: Set<String> = []
        let opening = try await Measurement.median(repetitions: repetitions) {
            inputs = try await DedicatedThread.run(named: "bench-test-cache-keys") { try makeInputs() }
        }
        let hashing = try await Measurement.median(repetitions: repetitions) {
            keys = try await inputs.keysOffThePool(for: testTargets)
        }
        let reading = await Measurement.median(repetitions: repetitions) {
            let found = await cache.localEntries(testTargets.compactMap { keys[$0] })
            (entries, latestNoted) = (found.entries, found.latestNoted)
        }
        let digesting = await Measurement.median(repetitions: repetitions) {
            let (inputs, entries) = (inputs, entries)
            _ = await DedicatedThread.run(named: "bench-test-cache-keys") {
                inputs.changedInputs(of: entries)
            }
        }
        let noting = try await Measurement.median(repetitions: repetitions) {
            try await cache.recordLatest(Array(keys.values), alreadyNoted: latestNoted)
        }
        print(
            "  phases: inputs opened \(Measurement.milliseconds(opening)), keys \(Measurement.milliseconds(hashing)), entries and latest keys read \(Measurement.milliseconds(reading)), recorded inputs digested \(Measurement.milliseconds(digesting)), latest keys noted \(Measurement.milliseconds(noting))"
        )
    }

    /// `cacheHome`: a throwaway `XDG_CACHE_HOME` for the runs.
    private func measureWarmRun(cacheHome: URL) async throws {
        let root = URL(
            fileURLWithPath: workspace ?? FileManager.default.currentDirectoryPath, isDirectory: true)
        let ribcage = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("ribcage")
        guard FileManager.default.isExecutableFile(atPath: ribcage.path) else {
            throw ValidationError(
                "No ribcage next to bench at \(ribcage.path): run `swift build -c release --product ribcage` first."
            )
        }

        // Build the tests once, so every timed run starts from the same built state.
        let build = try await Shell.run("swift", ["build", "--build-tests"], in: root)
        guard build.succeeded else {
            throw ValidationError("swift build --build-tests failed:\n\(build.errorText)")
        }

        func timed(_ arguments: [String]) async throws -> (seconds: Double, closing: String) {
            let clock = ContinuousClock()
            let start = clock.now
            let run = try await Shell.run(
                ribcage.path, arguments, in: root, environment: ["XDG_CACHE_HOME": cacheHome.path])
            let seconds = Measurement.seconds(clock.now - start)
            // Failing tests (exit 1) are timed like the rest: a red suite is never cached, so the
            // warm run runs it again, as it should. Anything else is a broken run.
            guard run.status == 0 || (run.status == 1 && !run.wasSignalled) else {
                throw ValidationError(
                    "ribcage \(arguments.joined(separator: " ")) \(run.terminationDescription):\n\(run.errorText)"
                )
            }
            let closing = run.outputText.split(separator: "\n").last.map(String.init) ?? ""
            return (seconds, closing)
        }
        let uncached = try await timed(["test"])
        let cold = try await timed(["test", "--cache"])
        let warm = try await timed(["test", "--cache"])
        print("\nThis workspace's tests (\(root.lastPathComponent)), tests built beforehand, one run each:\n")
        print(
            "ribcage test (no cache):            \(String(format: "%7.1f s", uncached.seconds))  \(uncached.closing)"
        )
        // The empty cache's run is the traced one: each suite in a `swift test` of its own under
        // strace, those Project.swift.md declares untraced beside them; the ratio is the trace's cost.
        print(
            "ribcage test --cache, empty cache:  \(String(format: "%7.1f s", cold.seconds))  \(cold.closing)  (\(String(format: "%.2f", cold.seconds / uncached.seconds))× uncached: traced; the goal is at most 1.15×)"
        )
        print(
            "ribcage test --cache, warm:         \(String(format: "%7.1f s", warm.seconds))  \(warm.closing)  (\(Measurement.ratio(uncached.seconds / warm.seconds)) faster than uncached)"
        )
    }
}
