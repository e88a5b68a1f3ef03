import Foundation
import LocalProvider
import Synchronization
import Testing

/// A load that misses memory reads the disk, then caches what it read. A save or removal that
/// runs while the read is under way must not be written over by that older value.
@Suite("LayeredStore with a change during a load")
struct LayeredStoreRaceTests {
    let key = StorageKey<String>("name")

    @Test("a save made while a load reads the disk stays in memory")
    func saveDuringLoad() async throws {
        let disk = PausingDisk()
        let store = LayeredStore(disk: disk)
        try await disk.inner.save("v1", for: key)
        let load = try await disk.pausingAfterNextRead { Task { try await store.load(key) } }
        try await store.save("v2", for: key)
        disk.resume()
        #expect(try await load.value == "v1", "the load returns what it read")
        #expect(try await store.memory.load(key) == "v2")
        #expect(try await store.load(key) == "v2")
    }

    @Test("a removal made while a load reads the disk is not undone by the load")
    func removalDuringLoad() async throws {
        let disk = PausingDisk()
        let store = LayeredStore(disk: disk)
        try await disk.inner.save("v1", for: key)
        let load = try await disk.pausingAfterNextRead { Task { try await store.load(key) } }
        try await store.remove(key)
        disk.resume()
        #expect(try await load.value == "v1")
        #expect(try await store.memory.load(key) == nil)
        #expect(try await store.load(key) == nil)
    }

    @Test("with no change meanwhile, the value read is cached")
    func cachesWithoutChange() async throws {
        let disk = PausingDisk()
        let store = LayeredStore(disk: disk)
        try await disk.inner.save("v1", for: key)
        let load = try await disk.pausingAfterNextRead { Task { try await store.load(key) } }
        disk.resume()
        #expect(try await load.value == "v1")
        #expect(try await store.memory.load(key) == "v1")
    }
}

/// A disk layer over a ``MemoryStore`` whose async read can be held after it has read, so a test
/// can make a change at exactly that moment.
private final class PausingDisk: LocalStore {
    let inner = MemoryStore()
    private let pause = Mutex<Pause?>(nil)

    private struct Pause {
        var read: CheckedContinuation<Void, Never>?
        var resume: CheckedContinuation<Void, Never>?
        var resumed = false
    }

    /// Starts what `start` starts, with the next async read held once it has read; returns when
    /// it is held.
    func pausingAfterNextRead<T>(_ start: () -> T) async throws -> T {
        var started: T?
        await withCheckedContinuation { (read: CheckedContinuation<Void, Never>) in
            pause.withLock { $0 = Pause(read: read) }
            started = start()
        }
        guard let started else { throw CancellationError() }
        return started
    }

    /// Lets the held read return.
    func resume() {
        let waiting = pause.withLock { pause -> CheckedContinuation<Void, Never>? in
            pause?.resumed = true
            return pause?.resume
        }
        waiting?.resume()
    }

    func entry<Value>(for key: StorageKey<Value>) async throws -> StoredEntry<Value>? {
        let entry = try await inner.entry(for: key)
        let read = pause.withLock { $0?.read }
        guard let read else { return entry }
        await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
            let resumed = pause.withLock { pause in
                pause?.read = nil
                pause?.resume = resume
                return pause?.resumed == true
            }
            read.resume()
            if resumed { resume.resume() }
        }
        pause.withLock { $0 = nil }
        return entry
    }

    func save<Value>(_ value: Value, for key: StorageKey<Value>, expiry: Expiry) throws {
        try inner.save(value, for: key, expiry: expiry)
    }
    func load<Value>(_ key: StorageKey<Value>) throws -> Value? { try inner.load(key) }
    func entry<Value>(for key: StorageKey<Value>) throws -> StoredEntry<Value>? { try inner.entry(for: key) }
    func remove<Value>(_ key: StorageKey<Value>) throws { try inner.remove(key) }
    func changes<Value>(for key: StorageKey<Value>) -> AsyncStream<Value?> { inner.changes(for: key) }
}
