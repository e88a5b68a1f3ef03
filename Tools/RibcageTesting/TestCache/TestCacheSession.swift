import BlockingWork
import Foundation
import RibcagePackage

/// The test cache for one `ribcage test --cache` run: the keys of its test targets, what the
/// cache already holds for them, and the recording of the green ones afterwards.
package struct TestCacheSession: Sendable {
    /// The stores.
    package let cache: TestCache
    /// How keys are made for this package.
    package let inputs: TestCacheInputs
    /// The commit being tested (with `+changes` when the tree differs from it), or nil.
    package let commit: String?
    /// This machine's name, for "green … on <host>".
    package let host: String
    /// Told what the user should know and the run goes on without: an entry that could not be
    /// read or stored, a suite that runs although its key is cached.
    package let warn: @Sendable (String) -> Void

    /// A session over stores and inputs already made (``open(root:package:cacheURL:instanceName:localFolder:timeout:environment:warn:)``
    /// makes them for a run; `bench test-cache` times a look-up apart from that).
    package init(
        cache: TestCache, inputs: TestCacheInputs, commit: String?, host: String,
        warn: @escaping @Sendable (String) -> Void
    ) {
        self.cache = cache
        self.inputs = inputs
        self.commit = commit
        self.host = host
        self.warn = warn
    }

    /// The configuration and flags `ribcage test` builds and runs with, part of every key.
    package static let testFlags = ["build --build-tests", "test --skip-build --parallel"]

    /// Opens the cache for the package at `root`.
    ///
    /// - Parameters:
    ///   - cacheURL: Where to share results: a Bazel HTTP remote cache (`http(s)://…`), a REAPI
    ///     server's action cache and CAS (`grpc://HOST:PORT`, `unix:PATH`), or nil for local only.
    ///   - instanceName: The REAPI server's instance name, "" for its default one.
    ///   - localFolder: The local store (default: `$XDG_CACHE_HOME/ribcage/test-cache`).
    /// - Throws: ``TestCacheError/badURL(_:)`` for an address that is neither; errors reading the
    ///   package's files.
    package static func open(
        root: URL, package: DescribedPackage, cacheURL: String?, instanceName: String = "",
        localFolder: URL? = nil,
        timeout: Duration = .seconds(10), environment: [String: String] = ProcessInfo.processInfo.environment,
        warn: @escaping @Sendable (String) -> Void
    ) async throws -> TestCacheSession {
        let remote: (any BlobStore)? = try cacheURL.map { address -> any BlobStore in
            if REAPIBlobStore.isAddress(address) {
                return try REAPIBlobStore(address: address, instanceName: instanceName, timeout: timeout)
            }
            return try HTTPBlobStore(url: address, timeout: timeout)
        }
        let local = LocalBlobStore(
            folder: localFolder ?? LocalBlobStore.defaultFolder(environment: environment))
        let version = try await Shell.run("swift", ["--version"])
        guard version.succeeded else {
            throw RibcageError.commandNotFound(
                "swift", hint: "`swift --version` \(version.terminationDescription).")
        }
        // Lists the root folder and hashes its manifests: on the keys' thread, not the pool.
        let inputs = try await DedicatedThread.run(named: "ribcage-test-cache-keys") {
            try TestCacheInputs(
                root: root, package: package, toolchain: version.outputText + version.errorText,
                configuration: "debug", flags: testFlags, environment: environment,
                declaredVariables: try TestCacheInputs.declaredVariables(packageAt: root))
        }
        return TestCacheSession(
            cache: TestCache(local: local, remote: remote, warn: warn), inputs: inputs,
            commit: await Self.commit(at: root, warn: warn), host: ProcessInfo.processInfo.hostName,
            warn: warn)
    }

    /// The cached green entries among `testTargets`, by test target, with the keys of all.
    ///
    /// An entry under the right key is a hit only while every input its run was seen to read
    /// still has its digest; one that changed is told to ``warn``, and the suite runs.
    package func lookUp(_ testTargets: [String]) async throws -> (
        keys: [String: TestCacheKey], hits: [String: TestCacheEntry]
    ) {
        let keys = try await inputs.keysOffThePool(for: testTargets)
        // The local store is read for all suites at once; what it lacks, one by one.
        let local = await cache.localEntries(testTargets.compactMap { keys[$0] })
        var found = local.entries
        for testTarget in testTargets where found[testTarget] == nil {
            guard let key = keys[testTarget], let hit = await cache.lookUp(key) else { continue }
            found[testTarget] = hit.entry
        }
        let inputs = inputs
        let entries = found
        let changed = await DedicatedThread.run(named: "ribcage-test-cache-keys") {
            inputs.changedInputs(of: entries)
        }
        var hits: [String: TestCacheEntry] = [:]
        for testTarget in testTargets {
            guard let entry = found[testTarget], let changedInputs = changed[testTarget] else { continue }
            guard let changedInputs, changedInputs.isEmpty else {
                warn(Self.staleNote(testTarget: testTarget, changed: changedInputs))
                continue
            }
            hits[testTarget] = entry
        }
        do {
            try await cache.recordLatest(
                testTargets.filter { hits[$0] != nil }.compactMap { keys[$0] },
                alreadyNoted: local.latestNoted)
        } catch {
            warn("warning: test cache: could not note the keys found: \(error)")
        }
        return (keys, hits)
    }

    /// Why a suite whose key is in the cache runs all the same.
    static func staleNote(testTarget: String, changed: [RecordedInput]?) -> String {
        guard let changed else {
            return "\(testTarget): its cache entry records no inputs read (an older ribcage wrote it); runs"
        }
        let named = changed.prefix(3).map { "\($0.path)" }.joined(separator: ", ")
        let more = changed.count > 3 ? " and \(changed.count - 3) more" : ""
        return "\(testTarget): read \(named)\(more), changed since its cached run; runs"
    }

    /// What one test target's run came to, as far as the cache cares.
    package struct Outcome: Sendable {
        package var testTarget: String
        /// True only when every test passed or was skipped and the run itself ended normally:
        /// no failure, no crash, no timeout, not cut short.
        package var isGreen: Bool
        package var passed: Int
        package var skipped: Int
        package var seconds: Double
        /// What the run was seen to read, already chosen and digested; nil when it was not
        /// traced, and then no green result is stored.
        package var recordedInputs: [RecordedInput]?
        /// Tests that failed at their first attempt (retries do not change them: a red run is
        /// evidence as it first ended).
        package var failed: Int = 0
        /// Each test's first outcome.
        package var cases: [TestCacheEntry.CaseOutcome] = []
        /// False for a run that crashed or the quarantine cut short: it is no evidence either way.
        package var isEvidence = true

        package init(
            testTarget: String, isGreen: Bool, passed: Int, skipped: Int, seconds: Double,
            recordedInputs: [RecordedInput]?, failed: Int = 0, cases: [TestCacheEntry.CaseOutcome] = [],
            isEvidence: Bool = true
        ) {
            self.testTarget = testTarget
            self.isGreen = isGreen
            self.passed = passed
            self.skipped = skipped
            self.seconds = seconds
            self.recordedInputs = recordedInputs
            self.failed = failed
            self.cases = cases
            self.isEvidence = isEvidence
        }
    }

    /// What ``record(_:keysBeforeRun:now:)`` did.
    package struct Recorded: Sendable, Equatable {
        /// The test targets stored as green.
        package var stored: [String] = []
        /// The tests that passed in one run and failed in another with the same key: this run
        /// and a run the cache kept, here or on another machine.
        package var flaky: [FlakyEvent] = []
    }

    /// Stores the green outcomes under the keys computed before the run, and keeps the red ones
    /// in their keys' red slots; both only when the inputs still hash to those keys: a file
    /// edited while the tests ran makes the result belong to neither version, so it is not kept.
    ///
    /// A green run whose key has a red run kept, or a red run whose key has a green one (whose
    /// recorded inputs are still as they were), proves the tests that failed in one and passed
    /// in the other flaky, without a retry: the same sources, toolchain, flags and inputs.
    @discardableResult
    package func record(
        _ outcomes: [Outcome], keysBeforeRun: [String: TestCacheKey], now: Date = Date()
    ) async -> Recorded {
        let kept = outcomes.filter { $0.isGreen || $0.isEvidence }
        guard !kept.isEmpty else { return Recorded() }
        let keysAfter: [String: TestCacheKey]
        do {
            keysAfter = try await inputs.keysOffThePool(for: kept.map(\.testTarget), withParts: true)
        } catch {
            warn("warning: test cache: could not re-read the inputs, so nothing is stored: \(error)")
            return Recorded()
        }
        var recorded = Recorded()
        for outcome in kept {
            // The key stored carries its parts, for a later --explain-cache.
            guard let key = keysAfter[outcome.testTarget], keysBeforeRun[outcome.testTarget]?.hash == key.hash
            else {
                warn("warning: test cache: \(outcome.testTarget)'s inputs changed while it ran; not stored")
                continue
            }
            let entry = TestCacheEntry(
                testTarget: outcome.testTarget, key: key, passed: outcome.passed, failed: outcome.failed,
                skipped: outcome.skipped, seconds: outcome.seconds, commit: commit, host: host, date: now,
                recordedInputs: outcome.recordedInputs, cases: outcome.cases)
            if outcome.isGreen {
                if outcome.recordedInputs != nil {
                    await cache.record(entry)
                    recorded.stored.append(outcome.testTarget)
                } else {
                    warn(
                        "warning: test cache: \(outcome.testTarget)'s run was not traced, so it is not stored"
                    )
                }
                if outcome.isEvidence, let red = await cache.lookUpRed(key), await stillHolds(red) {
                    recorded.flaky += Self.flakyTests(green: entry, red: red, now: now, commit: commit)
                }
            } else {
                await cache.recordRed(entry)
                if let green = await cache.lookUp(key)?.entry, await stillHolds(green) {
                    recorded.flaky += Self.flakyTests(green: green, red: entry, now: now, commit: commit)
                }
            }
        }
        return recorded
    }

    /// Whether every input `entry` recorded still has its digest (true when it recorded none: a
    /// red run is never traced, and then the key alone says the inputs were the same).
    private func stillHolds(_ entry: TestCacheEntry) async -> Bool {
        guard entry.recordedInputs != nil else { return true }
        let inputs = inputs
        let changed = await DedicatedThread.run(named: "ribcage-test-cache-keys") {
            entry.changedInputs(in: inputs)
        }
        return changed?.isEmpty == true
    }

    /// The tests that failed in `red` and passed in `green`, two runs with one key. An older green
    /// entry without per-test outcomes passed every test it ran.
    package static func flakyTests(green: TestCacheEntry, red: TestCacheEntry, now: Date, commit: String?)
        -> [FlakyEvent]
    {
        let passed = green.cases.map { Set($0.filter { $0.outcome == .passed }.map(\.test)) }
        return (red.cases ?? []).filter { $0.outcome == .failed && passed?.contains($0.test) ?? true }.map {
            FlakyEvent(
                test: $0.test, testTarget: red.testTarget, failed: 1, passed: 1, evidence: .sameKey,
                key: red.key.hash, commit: commit, hosts: Array(Set([red.host, green.host])).sorted(),
                date: now)
        }
    }

    /// `git rev-parse --short HEAD`, with `+changes` when `git status` shows edits; nil outside
    /// git or before the first commit. The commit only labels an entry for people reading it
    /// (the key, not the commit, decides a hit), so a git that cannot say is told to `warn` and
    /// is no reason to stop.
    package static func commit(at root: URL, warn: @Sendable (String) -> Void) async -> String? {
        guard Shell.isOnPath("git") else { return nil }
        do {
            return try await GitWorkTree(root: root).headDescription()
        } catch {
            warn("warning: git could not name the commit, so the results are recorded without one: \(error)")
            return nil
        }
    }
}
