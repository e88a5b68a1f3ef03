import ArgumentParser
import BlockingWork
import Foundation
import LocalProvider

/// `bench storage`: PlistFileStore against raw `PropertyListEncoder` + `Data.write(.atomic)`, the
/// todo store's append and fold against `write` + `fsync` of the same bytes, and each store
/// operation's async form against its synchronous form.
struct StorageBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storage",
        abstract:
            "Save and load 10,000 todo-sized records, in one file and one file per key, against the raw path."
    )

    @Option(help: "Records.")
    var records = 10_000

    @Option(help: "Todos appended one by one to the journaled store.")
    var appends = 200

    @Option(help: "Calls of each operation in each form for the async-against-sync comparison.")
    var calls = 1_000

    @Option(help: "Repetitions; the median is reported.")
    var repetitions = 3

    struct Record: Codable, Sendable, Equatable {
        var id: Int
        var title: String
        var isDone: Bool
        var createdAt: Date
    }

    func run() async throws {
        try await ScratchFolder.with(prefix: "bench-storage") { try await measure(scratch: $0) }
    }

    private func measure(scratch: URL) async throws {
        // Blocking file work for the whole measurement: on a thread of its own, not on one of
        // the cooperative pool's two, which the async forms below need.
        try await DedicatedThread.run(named: "bench-storage-sync") {
            try measureSynchronousForms(scratch: scratch)
        }
        try await measureJournal(scratch: scratch)
        // Off the main actor, so the async forms pay only for their own hop.
        let rows = try await Task.detached { [calls, repetitions] in
            try await AsyncFormComparison.measure(calls: calls, repetitions: repetitions, scratch: scratch)
        }.value
        print(
            "\nEach operation's async form against its synchronous form, per call (\(Measurement.grouped(Double(calls))) calls,"
                + " one small record, .atomic):\n"
                + "                                  sync          async")
        for row in rows {
            print(
                row.label.padding(toLength: 34, withPad: " ", startingAt: 0)
                    + "\(Measurement.milliseconds(row.sync))   \(Measurement.milliseconds(row.async)) "
                    + Measurement.ratio(row.ratio))
        }
    }

    private func measureSynchronousForms(scratch: URL) throws {
        #if DEBUG
            print(
                "warning: this is a debug build; run `swift run -c release bench storage` for real figures.")
        #endif
        let items = (0..<records).map {
            Record(
                id: $0, title: "Todo number \($0): walk the dog", isDone: $0 % 3 == 0,
                createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double($0)))
        }
        print(
            "Storage benchmark: \(Measurement.grouped(Double(records))) records, binary plists, median of \(repetitions)\n"
        )
        print(
            "Each repetition runs raw, .atomic and .durable back to back; ratios are per repetition, then the median.\n"
        )
        print("                                  raw           .atomic (default)    .durable")

        var round = 0
        func folder(_ name: String) throws -> URL {
            round += 1
            let url = scratch.appendingPathComponent("\(name)-\(round)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }

        // One file holding every record.
        let oneFile = try compare(
            raw: {
                let file = try folder("raw-one").appendingPathComponent("todos.plist")
                try PropertyListEncoder().encode(items).write(to: file, options: .atomic)
                let loaded = try PropertyListDecoder().decode([Record].self, from: Data(contentsOf: file))
                precondition(loaded.count == items.count)
            },
            store: { durability in
                let store = try PlistFileStore(
                    root: try folder("store-one"), format: .binary, durability: durability)
                let key = StorageKey<[Record]>("todos")
                try store.save(items, for: key)
                let loaded = try store.load(key)
                precondition(loaded?.count == items.count)
            })
        report("one file, save + load", oneFile)

        // One file per record.
        let perKey = try compare(
            raw: {
                let directory = try folder("raw-many")
                let encoder = PropertyListEncoder()
                for item in items {
                    // A bare struct is a dictionary, which a plist can hold at the top level.
                    let file = directory.appendingPathComponent("todo-\(item.id).plist")
                    try encoder.encode(item).write(to: file, options: .atomic)
                }
                let decoder = PropertyListDecoder()
                for item in items {
                    let data = try Data(contentsOf: directory.appendingPathComponent("todo-\(item.id).plist"))
                    let record = try decoder.decode(Record.self, from: data)
                    precondition(record.id == item.id)
                }
            },
            store: { durability in
                let store = try PlistFileStore(
                    root: try folder("store-many"), format: .binary, durability: durability)
                for item in items { try store.save(item, for: StorageKey<Record>("todo-\(item.id)")) }
                for item in items {
                    let record = try store.load(StorageKey<Record>("todo-\(item.id)"))
                    precondition(record?.id == item.id)
                }
            })
        report("one file per key, save + load", perKey)
        print("\nThe store keeps its guarantees throughout: temp file + fsync + rename, 0600 files, a schema")
        print(
            "version and expiry in every value, damaged files set aside. `.durable` also fsyncs the folder."
        )

    }

    /// The todo repository's writes, as the app awaits them, against the system calls.
    private func measureJournal(scratch: URL) async throws {
        let journal = try await JournalComparison.measure(
            records: records, appends: appends, repetitions: repetitions, scratch: scratch)
        print(
            "\nThe todo repository (StoredTodoRepository over JournaledStore, awaited), against write + fsync of"
                + " the very bytes it wrote:\n"
                + "                                  raw           JournaledStore")
        print(
            "append one todo (of \(appends))".padding(toLength: 34, withPad: " ", startingAt: 0)
                + "\(Measurement.milliseconds(journal.appendRaw))   "
                + "\(Measurement.milliseconds(journal.appendStore)) \(Measurement.ratio(journal.appendRatio))"
        )
        print(
            "fold \(Measurement.grouped(Double(records))) todos".padding(
                toLength: 34, withPad: " ", startingAt: 0)
                + "\(Measurement.milliseconds(journal.foldRaw))   "
                + "\(Measurement.milliseconds(journal.foldStore)) \(Measurement.ratio(journal.foldRatio))")
    }

    /// Medians of the three timings and of the two per-repetition ratios.
    struct Comparison {
        var raw, atomic, durable, atomicRatio, durableRatio: Double
    }

    private func compare(raw: () throws -> Void, store: (PlistFileStore.Durability) throws -> Void) throws
        -> Comparison
    {
        let clock = ContinuousClock()
        func time(_ body: () throws -> Void) rethrows -> Double {
            Measurement.seconds(try clock.measure(body))
        }
        var samples: [(raw: Double, atomic: Double, durable: Double)] = []
        for _ in 0..<repetitions {
            samples.append((try time(raw), try time { try store(.atomic) }, try time { try store(.durable) }))
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return Comparison(
            raw: median(samples.map(\.raw)), atomic: median(samples.map(\.atomic)),
            durable: median(samples.map(\.durable)), atomicRatio: median(samples.map { $0.atomic / $0.raw }),
            durableRatio: median(samples.map { $0.durable / $0.raw }))
    }

    private func report(_ label: String, _ result: Comparison) {
        let padded = label.padding(toLength: 34, withPad: " ", startingAt: 0)
        print(
            "\(padded)\(Measurement.milliseconds(result.raw))   \(Measurement.milliseconds(result.atomic)) "
                + "\(Measurement.ratio(result.atomicRatio))   \(Measurement.milliseconds(result.durable)) "
                + "\(Measurement.ratio(result.durableRatio))")
    }
}
