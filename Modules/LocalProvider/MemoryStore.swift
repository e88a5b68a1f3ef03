import Foundation

/// A ``LocalStore`` in memory, over a ``MemoryCache``: fast, bounded, and gone at exit.
public final class MemoryStore: LocalStore {
    /// The cache underneath; its limits bound the store.
    public let cache: MemoryCache<String, any Sendable>
    private let broadcaster = ChangeBroadcaster()
    private let now: @Sendable () -> Date

    /// Creates a store over a new cache with these limits (0 for none).
    ///
    /// - Parameter clock: The time that expiry is measured against; tests pass their own.
    public init(
        countLimit: Int = 0, totalCostLimit: Int = 0, clock: @escaping @Sendable () -> Date = Date.init
    ) {
        cache = MemoryCache(countLimit: countLimit, totalCostLimit: totalCostLimit, clock: clock)
        now = clock
    }

    /// Stores `value` under `key`.
    public func save<Value>(_ value: Value, for key: StorageKey<Value>, expiry: Expiry) throws {
        try save(value, for: key, expiry: expiry, cost: 0)
    }

    /// Stores `value` under `key` with a cost that counts against the cache's cost limit.
    public func save<Value>(_ value: Value, for key: StorageKey<Value>, expiry: Expiry, cost: Int) throws {
        try key.validate()
        let expiresAt = try expiry.checkedDate(from: now(), key: key.name)
        cache.setValue(value, forKey: key.name, cost: cost, expiry: expiresAt.map(Expiry.date) ?? .never)
        broadcaster.publish(value, for: key.name)
    }

    /// The value under `key`; `nil` if absent, evicted or expired.
    public func load<Value>(_ key: StorageKey<Value>) throws -> Value? {
        try key.validate()
        return cache.value(forKey: key.name) as? Value
    }

    /// Removes the value under `key`.
    public func remove<Value>(_ key: StorageKey<Value>) throws {
        try key.validate()
        cache.removeValue(forKey: key.name)
        broadcaster.publish(nil, for: key.name)
    }

    /// The value now, then every change.
    public func changes<Value>(for key: StorageKey<Value>) -> AsyncStream<Value?> {
        broadcaster.stream(for: key.name) { cache.value(forKey: key.name) as? Value }
    }
}
