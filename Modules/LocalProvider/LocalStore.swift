import Foundation

/// A typed key-value store. ``PlistFileStore``, ``UserDefaultsStore``, ``MemoryStore`` and
/// ``LayeredStore`` are the backends; all are thread-safe.
///
/// This is the original RIBs-todo app's `LocalProviderProtocol` (create, read, delete) with typed
/// keys.
public protocol LocalStore: Sendable {
    /// Stores `value` under `key`, replacing what was there.
    func save<Value>(_ value: Value, for key: StorageKey<Value>, expiry: Expiry) throws

    /// The value under `key`, or `nil` if there is none or it has expired.
    func load<Value>(_ key: StorageKey<Value>) throws -> Value?

    /// The value under `key` with its expiry date, or `nil` if there is none or it has expired.
    /// The default reports no expiry date; stores that keep one override this.
    func entry<Value>(for key: StorageKey<Value>) throws -> StoredEntry<Value>?

    /// Removes the value under `key`. Removing an absent key is not an error.
    func remove<Value>(_ key: StorageKey<Value>) throws

    /// The value under `key` now, then after every change (`nil` once removed).
    func changes<Value>(for key: StorageKey<Value>) -> AsyncStream<Value?>
}

/// A stored value and when it expires.
public struct StoredEntry<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// When it expires, or `nil` for never (or unknown).
    public var expiresAt: Date?

    /// Creates an entry.
    public init(value: Value, expiresAt: Date?) {
        self.value = value
        self.expiresAt = expiresAt
    }
}

extension LocalStore {
    /// ``load(_:)`` with no expiry date.
    public func entry<Value>(for key: StorageKey<Value>) throws -> StoredEntry<Value>? {
        try load(key).map { StoredEntry(value: $0, expiresAt: nil) }
    }

    /// Stores `value` under `key`, never expiring.
    public func save<Value>(_ value: Value, for key: StorageKey<Value>) throws {
        try save(value, for: key, expiry: .never)
    }
}
