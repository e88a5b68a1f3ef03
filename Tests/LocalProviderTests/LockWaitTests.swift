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
        let waiting = try await whileAnotherProcessHoldsTheLock(of: folder) {
            let waiting = Waiters()
            for index in 0..<Self.waiters {
                // Stores of both kinds, each with a queue of its own.
                if index.isMultiple(of: 2) {
                    let store = try PlistFileStore(root: folder.url, lockTimeout: .seconds(600))
                    waiting.start { try await store.save("waiter \(index)", for: key) }
                } else {
                    let store = JournaledStore<Shelf>(
                        folder: folder.url, name: "shelf", lockTimeout: .seconds(600))
                    waiting.start { try await store.append(.add("waiter \(index)")) }
                }
            }
            // Every thread of the pool at once: each task waits for the others to run.
            let threads = ProcessInfo.processInfo.activeProcessorCount
            #expect(await poolThreadsMeet(threads, within: .seconds(120)), "a pool thread is blocked")
            #expect(waiting.finished == 0, "the probe holds the lock, yet a change went through")
            return waiting
        }
        // The probe was killed with SIGKILL; the kernel dropped its lock.
        let clock = ContinuousClock()
        let start = clock.now
        try await waiting.all()
        #expect(clock.now - start < .seconds(120), "the waiters took \(clock.now - start)")
        let shelf = try await JournaledStore<Shelf>(folder: folder.url, name: "shelf").load()
        #expect(shelf.value.titles.count == Self.waiters / 2)
        #expect(try await PlistFileStore(root: folder.url).load(key)?.hasPrefix("waiter ") == true)
    }

    @Test("cancelling the task ends the wait for the lock with CancellationError, and nothing changes")
    func cancellationEndsTheWait() async throws {
        // Far longer than a cancelled wait takes: a wait that ignored the cancellation would end
        // with lockTimeout instead, failing the test.
        let stores = try StoresInAFolder(lockTimeout: .seconds(120))
        let (folder, key, plist, journal) = (stores.folder, stores.key, stores.plist, stores.journal)
        try await stores.save("before")
        try await whileAnotherProcessHoldsTheLock(of: folder) {
            let save = Task { try await plist.save("during", for: key) }
            let append = Task { try await journal.append(.add("during")) }
            try await #require(waitingThreads(in: folder.url, reach: 2), "both are waiting for the lock")
            save.cancel()
            append.cancel()
            await #expect(throws: CancellationError.self) { try await save.value }
            await #expect(throws: CancellationError.self) { try await append.value }
            #expect(FolderLock.waitingThreads(in: folder.url) == 0)
        }
        #expect(try await plist.load(key) == "before")
        #expect(try await stores.shelfOnDisk() == ["before"])
        // The store that was cancelled works on.
        try await journal.append(.add("after"))
        #expect(try await stores.shelfOnDisk() == ["before", "after"])
    }

    @Test("a task cancelled before it saves still saves when no other process holds the lock")
    func cancelledTaskSavesWithoutContention() async throws {
        let stores = try StoresInAFolder(lockTimeout: .seconds(30))
        let (folder, key, plist, journal) = (stores.folder, stores.key, stores.plist, stores.journal)
        // An interactor cancelled on detach that saves its last state on the way out.
        try await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            #expect(Task.isCancelled)
            try await stores.save("last")
        }.value
        #expect(try await plist.load(key) == "last")
        #expect(try await stores.shelfOnDisk() == ["last"])

        // With another process holding the lock, the same cancelled task stops at once.
        try await whileAnotherProcessHoldsTheLock(of: folder) {
            await Task {
                withUnsafeCurrentTask { $0?.cancel() }
                await #expect(throws: CancellationError.self) { try await plist.save("during", for: key) }
                await #expect(throws: CancellationError.self) { try await journal.append(.add("during")) }
            }.value
        }
        #expect(try await plist.load(key) == "last")
    }

    @Test("while a change waits for another process's lock, the store's other members hold no pool thread")
    func membersDoNotWaitBehindAWaitingChange() async throws {
        let stores = try StoresInAFolder(lockTimeout: .seconds(120))
        let (folder, key, plist, journal) = (stores.folder, stores.key, stores.plist, stores.journal)
        try await stores.save("before")
        let (streams, save, append) = try await whileAnotherProcessHoldsTheLock(of: folder) {
            // The same stores: each change holds its store's queue while it waits.
            let save = Task { try await plist.save("during", for: key) }
            let append = Task { try await journal.append(.add("during")) }
            try await #require(waitingThreads(in: folder.url, reach: 2), "both are waiting for the lock")
            let streams = Streams()
            let threads = ProcessInfo.processInfo.activeProcessorCount
            let met = await poolThreadsMeet(threads, within: .seconds(120)) {
                // Every pool thread subscribes, then meets the others.
                streams.add(plist.changes(for: key))
            }
            #expect(met, "a member of a store whose change waits for the lock blocked a pool thread")
            return (streams, save, append)
        }
        try await save.value
        try await append.value
        #expect(try await stores.shelfOnDisk() == ["before", "during"])
        for stream in streams.all {
            // The first value is read on the store's queue, after the change that was waiting.
            var changes = stream.makeAsyncIterator()
            #expect(await changes.next() == "during")
        }
    }

    @Test("a temporary file left while another process holds the lock is removed by the next open after")
    func temporaryFilesWaitForTheLock() async throws {
        let folder = try TemporaryFolder()
        let leftover = folder.file(".name.plist.\(UUID().uuidString).tmp")
        try Data("cut short".utf8).write(to: leftover)
        try await whileAnotherProcessHoldsTheLock(of: folder) {
            // The holder may be writing it: opening neither waits nor removes it.
            _ = try PlistFileStore(root: folder.url, lockTimeout: .seconds(30))
            #expect(FileManager.default.fileExists(atPath: leftover.path))
        }
        _ = try PlistFileStore(root: folder.url)
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
    }

    @Test("a wait longer than the lock timeout fails with a typed error, in either form, and changes nothing")
    func lockTimeout() async throws {
        let stores = try StoresInAFolder(lockTimeout: .milliseconds(200))
        let (folder, key, store, journal) = (stores.folder, stores.key, stores.plist, stores.journal)
        try await store.save("before", for: key)
        try await whileAnotherProcessHoldsTheLock(of: folder) {
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

/// A temporary folder with a store of each kind in it, both waiting at most `lockTimeout` for
/// the folder's lock.
private struct StoresInAFolder: Sendable {
    let folder: TemporaryFolder
    let key = StorageKey<String>("name")
    let plist: PlistFileStore
    let journal: JournaledStore<Shelf>

    init(lockTimeout: Duration) throws {
        folder = try TemporaryFolder()
        plist = try PlistFileStore(root: folder.url, lockTimeout: lockTimeout)
        journal = JournaledStore<Shelf>(folder: folder.url, name: "shelf", lockTimeout: lockTimeout)
    }

    /// Saves `title` with both stores: the plist's value, and an entry added to the shelf.
    func save(_ title: String) async throws {
        try await plist.save(title, for: key)
        try await journal.append(.add(title))
    }

    /// The shelf's titles as a store opened afresh reads them from the folder.
    func shelfOnDisk() async throws -> [String] {
        try await JournaledStore<Shelf>(folder: folder.url, name: "shelf").load().value.titles
    }
}

/// Runs `body` while another process (the storage probe) holds `folder`'s lock; the probe is
/// killed with SIGKILL after.
private func whileAnotherProcessHoldsTheLock<T: Sendable>(
    of folder: TemporaryFolder, _ body: @Sendable () async throws -> T
) async throws -> T {
    try await whileProbeRuns(["hold-lock", folder.url.path], untilItPrints: "locked", body)
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

/// Whether `count` threads of this process wait for the lock on `folder`, which another process
/// holds, within `timeout`: then each operation is inside that wait, not before or after it.
private func waitingThreads(in folder: URL, reach count: Int, within timeout: Duration = .seconds(120))
    async throws
    -> Bool
{
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while FolderLock.waitingThreads(in: folder) != count {
        guard clock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// Change streams opened on several threads.
private final class Streams: Sendable {
    private let streams = Mutex<[AsyncStream<String?>]>([])
    var all: [AsyncStream<String?>] { streams.withLock { $0 } }
    func add(_ stream: AsyncStream<String?>) { streams.withLock { $0.append(stream) } }
}

/// Whether `count` tasks run on the cooperative pool at the same moment within `timeout`: each
/// arrives, then spins until all have. With one of the pool's threads blocked, the last task
/// cannot start until the others give up.
///
/// Each task first runs `arrive`: if it blocks its thread, the tasks do not meet.
private func poolThreadsMeet(
    _ count: Int, within timeout: Duration, arrive: @escaping @Sendable () -> Void = {}
) async -> Bool {
    let arrived = Arrivals()
    return await withTaskGroup(of: Bool.self) { group in
        for _ in 0..<count {
            group.addTask {
                arrive()
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
