import BlockingWork
import Data
import Domain
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The todo repository's two writes, awaited as the app awaits them, against the system calls
/// they cannot avoid: an append against `write` + `fsync` of the same line, a fold of 10,000
/// todos against `write` + `fsync` of the same snapshot bytes. The gap is what the store adds:
/// the hop to its queue and back, encoding, its lock, the folder's lock
/// and its checks, and for the fold the rename, a fresh journal and the folder's `fsync`.
struct JournalComparison {
    var appendStore, appendRaw, foldStore, foldRaw, appendRatio, foldRatio: Double

    /// Medians of `repetitions` rounds; each round appends `appends` todos, then folds `records`.
    static func measure(records: Int, appends: Int, repetitions: Int, scratch: URL) async throws -> Self {
        let todos = (0..<records).map {
            Todo(
                title: "Todo number \($0): walk the dog", isDone: $0 % 3 == 0,
                createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double($0)))
        }
        let clock = ContinuousClock()
        var samples: [(appendStore: Double, appendRaw: Double, foldStore: Double, foldRaw: Double)] = []
        for round in 0..<repetitions {
            let folder = scratch.appendingPathComponent("journal-\(round)")
            let repository = StoredTodoRepository(folder: folder, foldThreshold: Int.max)
            _ = try await repository.loadTodos()
            let appendStart = clock.now
            for index in 0..<appends {
                try await repository.record(.added(Todo(title: "appended \(index)")))
            }
            let appendStore = Measurement.seconds(clock.now - appendStart) / Double(appends)
            // The very lines the store wrote, each written and fsynced again by hand. The system
            // calls block, so they run on a thread of their own, off the cooperative pool.
            let journal = repository.journalURL
            let appendRaw = try await DedicatedThread.run(named: "bench-journal-raw") {
                let lines = try Data(contentsOf: journal).split(separator: UInt8(ascii: "\n"))
                return try rawAppends(lines, to: folder.appendingPathComponent("raw.journal"))
            }

            let foldStart = clock.now
            try await repository.replace(with: todos)
            let foldStore = Measurement.seconds(clock.now - foldStart)
            let snapshot = repository.snapshotURL
            let foldRaw = try await DedicatedThread.run(named: "bench-journal-raw") {
                try rawWrite(Data(contentsOf: snapshot), to: folder.appendingPathComponent("raw.snapshot"))
            }
            samples.append((appendStore, appendRaw, foldStore, foldRaw))
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return Self(
            appendStore: median(samples.map(\.appendStore)), appendRaw: median(samples.map(\.appendRaw)),
            foldStore: median(samples.map(\.foldStore)), foldRaw: median(samples.map(\.foldRaw)),
            appendRatio: median(samples.map { $0.appendStore / $0.appendRaw }),
            foldRatio: median(samples.map { $0.foldStore / $0.foldRaw }))
    }

    /// Seconds per line to append each line with its newline and `fsync`.
    private static func rawAppends(_ lines: [Data], to url: URL) throws -> Double {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let clock = ContinuousClock()
        let start = clock.now
        for line in lines {
            try writeAll(line + Data([UInt8(ascii: "\n")]), to: descriptor)
            guard fsync(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        return Measurement.seconds(clock.now - start) / Double(max(1, lines.count))
    }

    /// Seconds to create `url`, write `bytes` and `fsync` it.
    private static func rawWrite(_ bytes: Data, to url: URL) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        try writeAll(bytes, to: descriptor)
        guard fsync(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return Measurement.seconds(clock.now - start)
    }

    private static func writeAll(_ bytes: Data, to descriptor: Int32) throws {
        try bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let rest = UnsafeRawBufferPointer(rebasing: buffer[offset...])
                let written = write(descriptor, rest.baseAddress, rest.count)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += written
            }
        }
    }
}
