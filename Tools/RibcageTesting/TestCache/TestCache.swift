import ContentDigest
import Foundation

/// A run of one test target, as the cache keeps it (a JSON blob in `/cas`): a green run, which
/// later runs with the same inputs reuse, or a red one, kept only as evidence of flakiness
/// (``TestCache/recordRed(_:)``) and never reused.
package struct TestCacheEntry: Sendable, Equatable {
    package var testTarget: String
    /// The key it was stored under; with its parts only as ``TestCache/latestEntry(of:withParts:)``
    /// reads it for `--explain-cache` (they are a blob of their own, ``StoredEntry``).
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
    package nonisolated let local: LocalBlobStore
    /// The shared store, if any.
    package nonisolated let remote: (any BlobStore)?
    /// Where warnings go.
    private let warn: @Sendable (String) -> Void
    private var remoteIsDown = false
    private var remoteRefusesWrites = false

    /// The output file name inside the `ActionResult` that points at an entry's result.
    package static let entryFileName = StoredEntry.resultFileName

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

    /// The green entry stored under `key`, or nil; its key without parts (a look-up needs the
    /// hash only; ``latestEntry(of:withParts:)`` reads them for `--explain-cache`).
    package func lookUp(_ key: TestCacheKey) async -> (entry: TestCacheEntry, source: Source)? {
        do {
            if let found = try await readEntry(for: key, in: local) { return (found.entry, .local) }
        } catch {
            warn("warning: test cache: ignoring the local entry for \(key.testTarget): \(error)")
        }
        guard let remote, !remoteIsDown else { return nil }
        do {
            guard let found = try await readEntry(for: key, in: remote) else { return nil }
            do {
                try await copy(found, of: key, from: remote)
            } catch {
                warn(
                    "warning: test cache: could not copy \(key.testTarget)'s entry to \(local.displayName): \(error)"
                )
            }
            return (found.entry, .remote)
        } catch let error as TestCacheError {
            note(error, about: key.testTarget)
            return nil
        } catch {
            warn("warning: test cache: \(remote.displayName): \(error); \(key.testTarget) runs")
            return nil
        }
    }

    /// Copies a shared entry into the local store as the server holds it, its key's parts
    /// included (one more request, for a later `--explain-cache` here). Parts the server lacks
    /// are left out: the entry stands without them.
    private func copy(_ found: FoundEntry, of key: TestCacheKey, from remote: any BlobStore) async throws {
        if let partsFile = found.partsFile,
            let parts = try await remote.get(.contentStore, partsFile.hash, size: partsFile.size),
            parts.count == partsFile.size, SHA256.hex(parts) == partsFile.hash
        {
            try await local.put(.contentStore, partsFile.hash, parts)
        }
        try await local.put(.contentStore, found.resultFile.hash, found.result)
        try await local.put(.actionCache, key.hash, found.action)
    }

    /// Stores a green run under its key, locally and on the server.
    package func record(_ entry: TestCacheEntry) async {
        do {
            try await write(entry, to: local)
            try await recordLatest(entry.key)
        } catch {
            warn("warning: test cache: could not store \(entry.testTarget) in \(local.displayName): \(error)")
        }
        guard let remote, !remoteIsDown, !remoteRefusesWrites else { return }
        do {
            try await write(entry, to: remote)
        } catch let error as TestCacheError {
            noteWriteFailure(error, of: entry.testTarget)
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
                if let found = try await readEntry(for: key, in: store, slot: key.redSlot) {
                    return found.entry
                }
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
        for (store, isRemote) in stores where !(isRemote && remoteRefusesWrites) {
            do {
                try await write(entry, to: store, slot: entry.key.redSlot)
            } catch let error as TestCacheError where isRemote {
                noteWriteFailure(error, of: entry.testTarget)
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

    /// A server that refuses a write (a read-only cache, one without an action cache it lets
    /// clients update) refuses the next one too: said once, and not written to again this run,
    /// while it is still read. A failure of one upload (too large, a server error) is that
    /// upload's.
    private func noteWriteFailure(_ error: TestCacheError, of testTarget: String) {
        switch error {
        case .unreachable:
            note(error, about: testTarget)
        case .refused, .httpStatus(401, _, _), .httpStatus(403, _, _), .httpStatus(405, _, _):
            remoteRefusesWrites = true
            warn(
                "warning: test cache: could not upload \(testTarget): \(error); "
                    + "not writing to \(remote?.displayName ?? "the shared cache") for the rest of this run")
        default:
            warn("warning: test cache: could not upload \(testTarget): \(error)")
        }
    }

    /// A server that cannot be reached, or refuses this client its reads, is said once and left
    /// alone for the rest of the run; anything else is about one entry.
    private func note(_ error: TestCacheError, about testTarget: String) {
        switch error {
        case .unreachable, .refused, .httpStatus(401, _, _), .httpStatus(403, _, _):
            remoteIsDown = true
            warn("warning: test cache: \(error); running without the shared cache for the rest of this run")
        default:
            warn("warning: test cache: ignoring \(testTarget)'s shared entry: \(error)")
        }
    }
}
