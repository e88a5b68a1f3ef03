import Foundation
import Synchronization

/// Memory over disk: reads come from memory when they can, writes go to both.
///
/// Expiry is honoured on every read, in both layers — unlike hyperoslo/Cache, whose disk storage
/// ignores it on read (#281). A value read from disk is cached in memory until the earlier of its
/// own expiry and `memoryLifetime`.
public final class LayeredStore: LocalStore {
    /// Read first. A save writes here after ``disk``; a value read from ``disk`` stays here until
    /// the earlier of its expiry and the memory lifetime.
    public let memory: MemoryStore
    /// Written on every save, before the memory layer; read when memory has no value.
    public let disk: any LocalStore
    private let memoryLifetime: Double
    private let now: @Sendable () -> Date
    private let generations = Generations()

    /// Creates a store of `memory` over `disk`.
    ///
    /// - Parameters:
    ///   - memoryLifetime: The most seconds a value read from disk stays in memory before the
    ///     disk is consulted again.
    ///   - clock: The time that the memory lifetime is measured against; give the layers the
    ///     same one.
    public init(
        memory: MemoryStore = MemoryStore(countLimit: 1_000), disk: any LocalStore,
        memoryLifetime: Double = 60, clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.memory = memory
        self.disk = disk
        self.memoryLifetime = memoryLifetime
        self.now = clock
    }

    /// Writes to disk first (the durable copy), then to memory.
    public func save<Value>(_ value: Value, for key: StorageKey<Value>, expiry: Expiry) throws {
        try disk.save(value, for: key, expiry: expiry)
        try changeMemory { try memory.save(value, for: key, expiry: expiry) }
    }

    /// Memory first; on a miss, disk, and the value found is cached in memory.
    public func load<Value>(_ key: StorageKey<Value>) throws -> Value? {
        if let value = try memory.load(key) { return value }
        let generation = generations.current
        return try cache(try disk.entry(for: key), for: key, readIn: generation)
    }

    /// Removes from both layers.
    public func remove<Value>(_ key: StorageKey<Value>) throws {
        try changeMemory { try memory.remove(key) }
        try disk.remove(key)
        try changeMemory { try memory.remove(key) }
    }

    /// Writes to disk first, through its async form, then to memory.
    nonisolated(nonsending) public func save<Value>(
        _ value: Value, for key: StorageKey<Value>, expiry: Expiry
    ) async throws {
        try await disk.save(value, for: key, expiry: expiry)
        try changeMemory { try memory.save(value, for: key, expiry: expiry) }
    }

    /// Memory first; on a miss, disk through its async form.
    nonisolated(nonsending) public func load<Value>(_ key: StorageKey<Value>) async throws -> Value? {
        if let value = try synchronously({ try memory.load(key) }) { return value }
        let generation = generations.current
        return try cache(try await disk.entry(for: key), for: key, readIn: generation)
    }

    /// Removes from both layers, from disk through its async form.
    nonisolated(nonsending) public func remove<Value>(_ key: StorageKey<Value>) async throws {
        try changeMemory { try memory.remove(key) }
        try await disk.remove(key)
        try changeMemory { try memory.remove(key) }
    }

    /// Makes a change to memory and starts a new generation, so that a value a load read from
    /// disk before the change is not cached over it. A removal does this twice, before and after
    /// the disk's, so that a load that read the disk in between does not bring the value back.
    private func changeMemory(_ change: () throws -> Void) throws {
        try generations.advance(while: change)
    }

    /// Keeps a value read from disk in memory until the earlier of its expiry and the memory
    /// lifetime, unless this store saved or removed a value since `generation` (the read may be
    /// older than the change), and returns it.
    private func cache<Value>(
        _ entry: StoredEntry<Value>?, for key: StorageKey<Value>, readIn generation: UInt64
    ) throws -> Value? {
        guard let entry else { return nil }
        let lifetimeEnd = now().addingTimeInterval(memoryLifetime)
        let until = entry.expiresAt.map { min($0, lifetimeEnd) } ?? lifetimeEnd
        try generations.ifStill(generation) { try memory.save(entry.value, for: key, expiry: .date(until)) }
        return entry.value
    }

    /// The disk layer's changes: it sees every write that goes through this store.
    public func changes<Value>(for key: StorageKey<Value>) -> AsyncStream<Value?> {
        disk.changes(for: key)
    }
}

/// Counts the changes a ``LayeredStore`` made to its memory layer. A load notes the count
/// before it reads the disk and caches what it read only if the count is unchanged — checked
/// and cached under the same lock as changes are made, so no change slips in between. Memory
/// changes never block, so neither does the lock.
private final class Generations: Sendable {
    private let count = Mutex<UInt64>(0)

    var current: UInt64 { count.withLock { $0 } }

    /// Runs `change` and counts it.
    func advance(while change: () throws -> Void) throws {
        try count.withLock { count in
            defer { count &+= 1 }
            try change()
        }
    }

    /// Runs `body` if no change was counted since `generation`.
    func ifStill(_ generation: UInt64, _ body: () throws -> Void) throws {
        try count.withLock { count in
            if count == generation { try body() }
        }
    }
}
