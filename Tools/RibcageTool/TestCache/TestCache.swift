import Foundation

/// A run of one test target, as the cache keeps it (a JSON blob in `/cas`): a green run, which
/// later runs with the same inputs reuse, or a red one, kept only as evidence of flakiness
/// (``TestCache/recordRed(_:)``) and never reused.
package struct TestCacheEntry: Sendable, Equatable, Codable {
    package var testTarget: String
    /// The key it was stored under, with its parts, for `--explain-cache`.
    package var key: TestCacheKey
    /// Tests that passed, failed and were skipped in that run (`failed` is nil or 0 for a green
    /// run, and nil in entries written before red runs were kept).
    package var passed: Int
    package var failed: Int?
    package var skipped: Int
    /// The run's seconds.
    package var seconds: Double
    /// The commit the run tested (`abc1234`, `abc1234+changes` with uncommitted edits), or nil
    /// outside git.
    package var commit: String?
    /// The machine it ran on.
    package var host: String
    /// When it ran.
    package var date: Date
    /// What the run was seen to read beyond the key (``RecordedInputSelection``), each with its
    /// digest then. An entry without them (written before they were recorded) is never a hit.
    package var recordedInputs: [RecordedInput]?
    /// Each test's outcome in that run, by `Target.Suite/name` (nil in older entries).
    package var cases: [CaseOutcome]?

    /// How one test ended in a stored run.
    package struct CaseOutcome: Sendable, Equatable, Codable {
        package enum Outcome: String, Sendable, Codable {
            case passed, failed, skipped
        }

        package var test: String
        package var outcome: Outcome
        package var seconds: Double?

        package init(test: String, outcome: Outcome, seconds: Double?) {
            self.test = test
            self.outcome = outcome
            self.seconds = seconds
        }
    }

    /// An entry for a run.
    package init(
        testTarget: String, key: TestCacheKey, passed: Int, failed: Int? = nil, skipped: Int, seconds: Double,
        commit: String?, host: String, date: Date, recordedInputs: [RecordedInput]?,
        cases: [CaseOutcome]? = nil
    ) {
        self.testTarget = testTarget
        self.key = key
        self.passed = passed
        self.failed = failed
        self.cases = cases
        self.skipped = skipped
        self.seconds = seconds
        self.commit = commit
        self.host = host
        self.date = date
        self.recordedInputs = recordedInputs
    }

    /// The recorded inputs whose digest differs now, in the package `inputs` reads; nil when
    /// the entry has none recorded (every such entry is stale).
    package func changedInputs(in inputs: TestCacheInputs) -> [RecordedInput]? {
        recordedInputs.map { recorded in recorded.filter { $0.currentDigest(in: inputs) != $0.digest } }
    }

    /// `cached: green at abc1234 on ci-7, 2026-11-23 23:58 UTC`.
    package var summary: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return "cached: green at \(commit ?? "(no commit)") on \(host), \(formatter.string(from: date))"
    }
}

/// The test cache: a local store, and a shared one when `--cache-url` names a server.
///
/// Lookups try the local store, then the shared one (a hit there is copied locally); a green
/// result is written to both. Any failure of a store or an entry is a warning and a miss: the
/// suite runs. After the first failure to reach the server, the rest of the run leaves it
/// alone, so a dead server costs one timeout, not one per suite.
package actor TestCache {
    /// Where blobs are kept on this machine.
    package let local: LocalBlobStore
    /// The shared store, if any.
    package let remote: (any BlobStore)?
    /// Where warnings go.
    private let warn: @Sendable (String) -> Void
    private var remoteIsDown = false

    /// The output file name inside the `ActionResult` that points at an entry.
    package static let entryFileName = "ribcage-test-result.json"

    /// A cache over `local` and, optionally, `remote`.
    package init(local: LocalBlobStore, remote: (any BlobStore)?, warn: @escaping @Sendable (String) -> Void)
    {
        self.local = local
        self.remote = remote
        self.warn = warn
    }

    /// Where a lookup was answered from.
    package enum Source: String, Sendable {
        case local, remote
    }

    /// The green entry stored under `key`, or nil.
    package func lookUp(_ key: TestCacheKey) async -> (entry: TestCacheEntry, source: Source)? {
        do {
            if let entry = try await readEntry(for: key, in: local) { return (entry, .local) }
        } catch {
            warn("warning: test cache: ignoring the local entry for \(key.testTarget): \(error)")
        }
        guard let remote, !remoteIsDown else { return nil }
        do {
            guard let entry = try await readEntry(for: key, in: remote) else { return nil }
            do {
                try await write(entry, to: local)
            } catch {
                warn(
                    "warning: test cache: could not copy \(key.testTarget)'s entry to \(local.displayName): \(error)"
                )
            }
            return (entry, .remote)
        } catch let error as TestCacheError {
            note(error, about: key.testTarget)
            return nil
        } catch {
            warn("warning: test cache: \(remote.displayName): \(error); \(key.testTarget) runs")
            return nil
        }
    }

    /// Stores a green run under its key, locally and on the server.
    package func record(_ entry: TestCacheEntry) async {
        do {
            try await write(entry, to: local)
            try await recordLatest(entry.key)
        } catch {
            warn("warning: test cache: could not store \(entry.testTarget) in \(local.displayName): \(error)")
        }
        guard let remote, !remoteIsDown else { return }
        do {
            try await write(entry, to: remote)
        } catch let error as TestCacheError {
            note(error, about: entry.testTarget)
        } catch {
            warn("warning: test cache: could not upload \(entry.testTarget): \(error)")
        }
    }

    /// The last red run stored for `key`, here or on the server, or nil. Red runs live under
    /// their own action key (``TestCacheKey/redSlot``), so no lookup for a green run can ever
    /// find one.
    package func lookUpRed(_ key: TestCacheKey) async -> TestCacheEntry? {
        for (store, isRemote) in stores {
            do {
                if let entry = try await readEntry(for: key, in: store, slot: key.redSlot) { return entry }
            } catch let error as TestCacheError where isRemote {
                note(error, about: key.testTarget)
            } catch {
                warn(
                    "warning: test cache: ignoring \(key.testTarget)'s red run in \(store.displayName): \(error)"
                )
            }
        }
        return nil
    }

    /// Keeps a red run under its key's red slot, locally and on the server, so that a green run
    /// with the same inputs, here or on another machine, shows the test flaky.
    package func recordRed(_ entry: TestCacheEntry) async {
        for (store, isRemote) in stores {
            do {
                try await write(entry, to: store, slot: entry.key.redSlot)
            } catch let error as TestCacheError where isRemote {
                note(error, about: entry.testTarget)
            } catch {
                warn(
                    "warning: test cache: could not keep \(entry.testTarget)'s red run in \(store.displayName): \(error)"
                )
            }
        }
    }

    /// The local store, then the server while it answers.
    private var stores: [(store: any BlobStore, isRemote: Bool)] {
        [(local, false)] + (remoteIsDown ? [] : remote.map { [($0, true)] } ?? [])
    }

    private func note(_ error: TestCacheError, about testTarget: String) {
        if case .unreachable = error {
            remoteIsDown = true
            warn("warning: test cache: \(error); running without the shared cache for the rest of this run")
        } else {
            warn("warning: test cache: ignoring \(testTarget)'s shared entry: \(error)")
        }
    }

    /// Reads the `ActionResult` at `ac/<key>`, then the entry it names in `cas`, checking the
    /// entry's digest, size and key, so a truncated, swapped or garbled blob is never trusted.
    private func readEntry(for key: TestCacheKey, in store: any BlobStore, slot: String? = nil) async throws
        -> TestCacheEntry?
    {
        let actionKey = slot ?? key.hash
        guard let actionData = try await store.get(.actionCache, actionKey) else { return nil }
        let file = try Self.entryFile(inAction: actionData, key: key, actionKey: actionKey)
        guard let blob = try await store.get(.contentStore, file.hash) else {
            throw TestCacheError.damagedEntry("cas/\(file.hash), named by ac/\(actionKey), is missing")
        }
        return try Self.entry(in: blob, file: file, key: key, withParts: true, greenSlot: slot == nil)
    }

    /// The entry file an `ActionResult` names.
    static func entryFile(inAction actionData: Data, key: TestCacheKey, actionKey: String? = nil) throws
        -> ActionResult.OutputFile
    {
        let actionKey = actionKey ?? key.hash
        let action: ActionResult
        do {
            action = try ActionResult(serialized: actionData)
        } catch {
            throw TestCacheError.damagedEntry("ac/\(actionKey) is not an ActionResult (\(error))")
        }
        guard action.exitCode == 0,
            let file = action.outputFiles.first(where: { $0.path == Self.entryFileName })
        else { throw TestCacheError.damagedEntry("ac/\(actionKey) names no \(Self.entryFileName)") }
        return file
    }

    /// The entry in `blob`, once its size and digest are those `file` names and it holds `key`.
    ///
    /// - Parameters:
    ///   - withParts: Decode the stored key's parts too (every file of the suite's closure, for
    ///     `--explain-cache`); a look-up needs only the hash, and decoding hundreds of parts per
    ///     suite was most of a look-up's time.
    ///   - greenSlot: Read from the key's own action, which holds green runs only: an entry
    ///     there with failed tests is refused, whatever a server was sent.
    static func entry(
        in blob: Data, file: ActionResult.OutputFile, key: TestCacheKey, withParts: Bool,
        greenSlot: Bool = true
    ) throws -> TestCacheEntry {
        guard blob.count == file.size, SHA256.hex(blob) == file.hash else {
            throw TestCacheError.damagedEntry(
                "cas/\(file.hash) has \(blob.count) bytes that do not hash to its name (expected \(file.size))"
            )
        }
        let entry: TestCacheEntry
        do {
            entry =
                withParts
                ? try Self.decoder().decode(TestCacheEntry.self, from: blob)
                : try Self.decoder().decode(TestCacheEntry.WithoutParts.self, from: blob).entry
        } catch {
            throw TestCacheError.damagedEntry("cas/\(file.hash) is not a ribcage test result")
        }
        guard entry.key.hash == key.hash, entry.testTarget == key.testTarget else {
            throw TestCacheError.damagedEntry("cas/\(file.hash) holds another key's result")
        }
        guard !greenSlot || (entry.failed ?? 0) == 0 else {
            throw TestCacheError.damagedEntry(
                "cas/\(file.hash), a green key's entry, holds a run with failed tests")
        }
        return entry
    }

    /// The content first, then the action that names it: a reader never finds an action whose
    /// content is still missing (and bazel-remote refuses such an action).
    private func write(_ entry: TestCacheEntry, to store: any BlobStore, slot: String? = nil) async throws {
        let blob = try Self.encoder().encode(entry)
        let digest = SHA256.hex(blob)
        try await store.put(.contentStore, digest, blob)
        let action = ActionResult(
            outputFiles: [.init(path: Self.entryFileName, hash: digest, size: Int64(blob.count))])
        try await store.put(.actionCache, slot ?? entry.key.hash, action.serialized())
    }

    // MARK: - The last key per test target, for --explain-cache

    private func latestFile(_ testTarget: String) -> URL {
        local.folder.appendingPathComponent("latest", isDirectory: true).appendingPathComponent(testTarget)
    }

    /// Remembers `key` as the last one stored or found for its test target on this machine.
    package func recordLatest(_ key: TestCacheKey) async throws {
        let file = latestFile(key.testTarget)
        try await DedicatedThread.run(named: "ribcage-test-cache-store") {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(key.hash.utf8).write(to: file, options: .atomic)
        }
    }

    /// The entry of the last key stored or found for `testTarget` on this machine.
    package func latestEntry(of testTarget: String) async throws -> TestCacheEntry? {
        let file = latestFile(testTarget)
        let pointed: Data? = try await DedicatedThread.run(named: "ribcage-test-cache-store") {
            guard FileManager.default.fileExists(atPath: file.path) else { return nil }
            return try Data(contentsOf: file)
        }
        guard let pointed else { return nil }
        let hash = String(decoding: pointed, as: UTF8.self)
        guard hash.count == 64, hash.allSatisfy(\.isHexDigit) else { return nil }
        let pointer = TestCacheKey(testTarget: testTarget, parts: [])
        var probe = pointer
        probe.hash = hash
        return try await readEntry(for: probe, in: local)
    }

    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
