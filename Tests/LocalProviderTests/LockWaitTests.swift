import Foundation
import LocalProvider
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A change made while another process holds the folder's lock waits for it. The async forms
/// wait on the store's own queue: the cooperative pool keeps every thread, a cancelled task
/// stops waiting, and a killed holder lets the waiters through.
@Suite("Waiting for another process's lock")
struct LockWaitTests {
    /// Twice as many waiters as the pool has threads: waiting on the pool would take them all.
    static let waiters = 2 * ProcessInfo.processInfo.activeProcessorCount

    @Test("waiting changes hold no thread of the cooperative pool, and go through once the holder is killed")
    func waitersLeaveThePoolFree() async throws {
        let folder = try TemporaryFolder()
        let key = StorageKey<String>("name")
        let waiting = try await whileProbeRuns(["hold-lock", folder.url.path], untilItPrints: "locked") {
            let waiting = Waiters()
            for index in 0..<Self.waiters {
                // Stores of both kinds, each with a queue of its own.
                if index.isMultiple(of: 2) {
                    let store = try PlistFileStore(root: folder.url, lockTimeout: .seconds(120))
                    waiting.start { try await store.save("waiter \(index)", for: key) }
                } else {
                    let store = JournaledStore<Shelf>(
                        folder: folder.url, name: "shelf", lockTimeout: .seconds(120))
                    waiting.start { try await store.append(.add("waiter \(index)")) }
                }
            }
            // Every thread of the pool at once: each task waits for the others to run.
            let threads = ProcessInfo.processInfo.activeProcessorCount
            #expect(await poolThreadsMeet(threads, within: .seconds(20)), "a pool thread is blocked")
            #expect(waiting.finished == 0, "the probe holds the lock, yet a change went through")
            return waiting
        }
        // The probe was killed with SIGKILL; the kernel dropped its lock.
        let clock = ContinuousClock()
        let start = clock.now
        try await waiting.all()
        #expect(clock.now - start < .seconds(20), "the waiters took \(clock.now - start)")
        let shelf = try await JournaledStore<Shelf>(folder: folder.url, name: "shelf").load()
        #expect(shelf.value.titles.count == Self.waiters / 2)
        #expect(try await PlistFileStore(root: folder.url).load(key)?.hasPrefix("waiter ") == true)
    }

    @Test("cancelling the task ends the wait for the lock with CancellationError, and nothing changes")
    func cancellationEndsTheWait() async throws {
        let folder = try TemporaryFolder()
        let key = StorageKey<String>("name")
        let plist = try PlistFileStore(root: folder.url, lockTimeout: .seconds(120))
        let journal = JournaledStore<Shelf>(folder: folder.url, name: "shelf", lockTimeout: .seconds(120))
        try await plist.save("before", for: key)
        try await journal.append(.add("before"))
        try await whileProbeRuns(["hold-lock", folder.url.path], untilItPrints: "locked") {
            let save = Task { try await plist.save("during", for: key) }
            let append = Task { try await journal.append(.add("during")) }
            // Long enough for both to be waiting for the lock; cancelled earlier, they end the
            // same way, before taking it.
            try await Task.sleep(for: .milliseconds(200))
            let clock = ContinuousClock()
            let start = clock.now
            save.cancel()
            append.cancel()
            await #expect(throws: CancellationError.self) { try await save.value }
            await #expect(throws: CancellationError.self) { try await append.value }
            #expect(clock.now - start < .seconds(10), "the cancelled waits took \(clock.now - start)")
        }
        #expect(try await plist.load(key) == "before")
        let reopened = try await JournaledStore<Shelf>(folder: folder.url, name: "shelf").load()
        #expect(reopened.value.titles == ["before"])
        // The store that was cancelled works on.
        try await journal.append(.add("after"))
        #expect(journal.value?.titles == ["before", "after"])
    }

    @Test("a wait longer than the lock timeout fails with a typed error, in either form, and changes nothing")
    func lockTimeout() async throws {
        let folder = try TemporaryFolder()
        let key = StorageKey<String>("name")
        let store = try PlistFileStore(root: folder.url, lockTimeout: .milliseconds(200))
        let journal = JournaledStore<Shelf>(
            folder: folder.url, name: "shelf", lockTimeout: .milliseconds(200))
        try await store.save("before", for: key)
        try await whileProbeRuns(["hold-lock", folder.url.path], untilItPrints: "locked") {
            let asyncError = await #expect(throws: StorageError.self) {
                try await store.save("during", for: key)
            }
            let syncError = #expect(throws: StorageError.self) { try saveSynchronously("during", in: store) }
            let journalError = await #expect(throws: StorageError.self) {
                try await journal.append(.add("during"))
            }
            for error in [asyncError, syncError, journalError] {
                guard let error, case .lockTimeout(let locked, .milliseconds(200)) = error else {
                    Issue.record("expected lockTimeout, got \(String(describing: error))")
                    continue
                }
                #expect(locked == folder.url.path)
            }
            let during = try await store.load(key)
            #expect(during == "before", "reading needs no lock")
        }
        try await store.save("after", for: key)
        #expect(try await store.load(key) == "after")
        #expect(try await journal.load().value.titles.isEmpty)
    }
}

/// The synchronous form of `save`, which a function that is not async calls.
private func saveSynchronously(_ value: String, in store: PlistFileStore) throws {
    try store.save(value, for: StorageKey<String>("name"))
}

/// Changes started at once, each in a task of its own.
private final class Waiters: Sendable {
    private let tasks = Mutex<[Task<Void, any Error>]>([])
    private let done = Atomic(0)

    /// How many have ended.
    var finished: Int { done.load(ordering: .acquiring) }

    func start(_ change: @escaping @Sendable () async throws -> Void) {
        let task = Task {
            defer { self.done.add(1, ordering: .releasing) }
            try await change()
        }
        tasks.withLock { $0.append(task) }
    }

    /// Waits for every change; throws the first error.
    func all() async throws {
        for task in tasks.withLock({ $0 }) { try await task.value }
    }
}

/// Whether `count` tasks run on the cooperative pool at the same moment within `timeout`: each
/// arrives, then spins until all have. With one of the pool's threads blocked, the last task
/// cannot start until the others give up.
private func poolThreadsMeet(_ count: Int, within timeout: Duration) async -> Bool {
    let arrived = Arrivals()
    return await withTaskGroup(of: Bool.self) { group in
        for _ in 0..<count {
            group.addTask {
                arrived.count.add(1, ordering: .sequentiallyConsistent)
                let clock = ContinuousClock()
                let deadline = clock.now.advanced(by: timeout)
                while arrived.count.load(ordering: .sequentiallyConsistent) < count {
                    guard clock.now < deadline else { return false }
                    sched_yield()
                }
                return true
            }
        }
        return await group.allSatisfy { $0 }
    }
}

private final class Arrivals: Sendable {
    let count = Atomic(0)
}
