import BlockingWork
import Foundation
import LocalProvider

/// Each store operation's async form against its synchronous form, call for call, on the same
/// kind of folder: what the hop to the store's own queue and back costs. The async form does the
/// same file work, on the store's `IOQueue`, while the caller's task waits without a thread. The
/// synchronous form runs on a thread of its own, as blocking work must (never on the cooperative
/// pool, which has a thread per core).
struct AsyncFormComparison {
    /// One operation: seconds per call in each form, and the median of the per-repetition ratios.
    struct Row {
        var label: String
        var sync, async, ratio: Double
    }

    /// A small journaled value: the records appended so far.
    struct RecordLog: Journaled {
        var records: [StorageBenchmark.Record] = []

        init() {}
        init(snapshot: [StorageBenchmark.Record]) { records = snapshot }
        var snapshot: [StorageBenchmark.Record] { records }
        mutating func apply(_ change: StorageBenchmark.Record) { records.append(change) }
    }

    /// Medians of `repetitions` rounds. Each round runs both forms on fresh folders, the
    /// synchronous one first in even rounds and the async one first in odd rounds (so that
    /// neither always meets the warmer caches): `calls` saves of one record each (one file per
    /// key), `calls` loads of them, and `calls` journal appends.
    static func measure(calls: Int, repetitions: Int, scratch: URL) async throws -> [Row] {
        let records = (0..<calls).map {
            StorageBenchmark.Record(
                id: $0, title: "Todo number \($0): walk the dog", isDone: $0 % 3 == 0,
                createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double($0)))
        }
        let keys = records.map { StorageKey<StorageBenchmark.Record>("todo-\($0.id)") }
        var samples: [[(sync: Double, async: Double)]] = [[], [], []]
        for round in 0..<repetitions {
            func folder(_ name: String) throws -> URL {
                let url = scratch.appendingPathComponent("forms-\(round)-\(name)")
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                return url
            }
            let syncStore = try PlistFileStore(root: try folder("sync"), format: .binary)
            let asyncStore = try PlistFileStore(root: try folder("async"), format: .binary)
            samples[0].append(
                try await timedPair(
                    round: round,
                    sync: { try timedSync(calls) { try saveAll(records, keys, in: syncStore) } },
                    async: {
                        try await timedAsync(calls) {
                            for (record, key) in zip(records, keys) {
                                try await asyncStore.save(record, for: key)
                            }
                        }
                    }))
            samples[1].append(
                try await timedPair(
                    round: round,
                    sync: { try timedSync(calls) { try loadAll(keys, from: syncStore) } },
                    async: {
                        try await timedAsync(calls) {
                            for key in keys {
                                let loaded = try await asyncStore.load(key)
                                precondition(loaded != nil)
                            }
                        }
                    }))
            let syncLog = JournaledStore<RecordLog>(
                folder: try folder("log-sync"), name: "log", foldThreshold: .max)
            let asyncLog = JournaledStore<RecordLog>(
                folder: try folder("log-async"), name: "log", foldThreshold: .max)
            // Opened (read) before timing, in either form: the appends are what is measured.
            _ = try await syncLog.load()
            _ = try await asyncLog.load()
            samples[2].append(
                try await timedPair(
                    round: round,
                    sync: { try timedSync(calls) { try appendAll(records, to: syncLog) } },
                    async: {
                        try await timedAsync(calls) {
                            for record in records { try await asyncLog.append(record) }
                        }
                    }))
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let labels = ["save one record", "load one record", "append one record"]
        return zip(labels, samples).map { label, pairs in
            Row(
                label: label, sync: median(pairs.map(\.sync)), async: median(pairs.map(\.async)),
                ratio: median(pairs.map { $0.async / $0.sync }))
        }
    }

    /// Seconds per call of each form, timed in the order `round` gives; the synchronous form on a
    /// thread of its own (the hop there and back is not timed).
    private static func timedPair(
        round: Int, sync: @escaping @Sendable () throws -> Double, async: () async throws -> Double
    ) async throws -> (sync: Double, async: Double) {
        let syncSeconds: Double
        let asyncSeconds: Double
        if round.isMultiple(of: 2) {
            syncSeconds = try await DedicatedThread.run(named: "bench-sync-form", sync)
            asyncSeconds = try await async()
        } else {
            asyncSeconds = try await async()
            syncSeconds = try await DedicatedThread.run(named: "bench-sync-form", sync)
        }
        return (syncSeconds, asyncSeconds)
    }

    // The synchronous forms, called from functions that are not async, where Swift picks them.

    private static func saveAll(
        _ records: [StorageBenchmark.Record], _ keys: [StorageKey<StorageBenchmark.Record>],
        in store: PlistFileStore
    ) throws {
        for (record, key) in zip(records, keys) { try store.save(record, for: key) }
    }

    private static func loadAll(_ keys: [StorageKey<StorageBenchmark.Record>], from store: PlistFileStore)
        throws
    {
        for key in keys {
            let loaded = try store.load(key)
            precondition(loaded != nil)
        }
    }

    private static func appendAll(_ records: [StorageBenchmark.Record], to log: JournaledStore<RecordLog>)
        throws
    {
        for record in records { try log.append(record) }
    }

    private static func timedSync(_ calls: Int, _ body: () throws -> Void) throws -> Double {
        Measurement.seconds(try ContinuousClock().measure(body)) / Double(calls)
    }

    private static func timedAsync(_ calls: Int, _ body: () async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await body()
        return Measurement.seconds(clock.now - start) / Double(calls)
    }
}
