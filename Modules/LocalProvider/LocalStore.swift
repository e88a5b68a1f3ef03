import Foundation

/// A typed key-value store. ``PlistFileStore``, ``UserDefaultsStore``, ``MemoryStore`` and
/// ``LayeredStore`` are the backends; all are thread-safe.
///
/// This is the original RIBs-todo app's `LocalProviderProtocol` (create, read, delete) with typed
/// keys.
///
/// Each operation comes in two forms, as GRDB's do. In async code Swift picks the `async` one,
/// which does the file work — waiting for another process's lock, reading, writing, `fsync` — on
/// a queue of the store's own, so that it never holds a thread of the cooperative pool. The
/// synchronous form is for callers that are not async; it blocks its thread while it waits for
/// the lock (at most the store's lock timeout) and for the disk. No member waits for another
/// thread's operation on the same store: ``changes(for:)`` returns at once and reads its first
/// value on the store's queue.
///
/// The async forms are `nonisolated(nonsending)`: they run on their caller's actor up to the
/// hand-off to the store's queue, and the caller's task comes back to that actor straight from
/// the queue, with no stop on the cooperative pool. A conformer whose async forms block must
/// hand its work to threads of its own, as ``PropertyListStore`` does; the defaults run the
/// synchronous form where they are called, which is right only for a store that never blocks,
/// such as ``MemoryStore``.
///
/// Cancellation: an async change stops, with `CancellationError` and nothing changed, only
/// while it waits for the lock of a folder another process holds. Otherwise it runs to its end
/// even when its task is cancelled — before it started, too — so that a cancelled task that
/// saves its last state on the way out keeps it. A read always runs to its end.
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

    /// ``save(_:for:expiry:)`` without holding a thread while the file work runs. The
    /// default runs the synchronous form where it is called: right for a store that never
    /// blocks, such as ``MemoryStore``.
    nonisolated(nonsending) func save<Value>(_ value: Value, for key: StorageKey<Value>, expiry: Expiry)
        async throws

    /// ``load(_:)`` without holding a thread while the file work runs.
    nonisolated(nonsending) func load<Value>(_ key: StorageKey<Value>) async throws -> Value?

    /// ``entry(for:)`` without holding a thread while the file work runs.
    nonisolated(nonsending) func entry<Value>(for key: StorageKey<Value>) async throws -> StoredEntry<Value>?

    /// ``remove(_:)`` without holding a thread while the file work runs.
    nonisolated(nonsending) func remove<Value>(_ key: StorageKey<Value>) async throws

    /// The value under `key` now, then after every change (`nil` once removed).
    func changes<Value>(for key: StorageKey<Value>) -> AsyncStream<Value?>
}

/// A stored value and when it expires.
public struct StoredEntry<Value: Sendable>: Sendable {
    /// The value as ``LocalStore/load(_:)`` would return it: an entry is never read once it
    /// has expired.
    public var value: Value
    /// When it expires, or `nil` for never (or unknown).
    public var expiresAt: Date?

    /// An entry as a store read it, for stores of your own; `expiresAt` is `nil` for a value that
    /// never expires or whose expiry is not known.
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

    /// Stores `value` under `key`, never expiring, without holding a thread meanwhile.
    nonisolated(nonsending) public func save<Value>(_ value: Value, for key: StorageKey<Value>) async throws {
        try await save(value, for: key, expiry: .never)
    }

    // The defaults of the async forms. Each calls the synchronous form from a closure that is
    // not async, where Swift picks it over the async form.

    /// Runs ``save(_:for:expiry:)`` where it is called.
    nonisolated(nonsending) public func save<Value>(
        _ value: Value, for key: StorageKey<Value>, expiry: Expiry
    ) async throws {
        try synchronously { try save(value, for: key, expiry: expiry) }
    }

    /// Runs ``load(_:)`` where it is called.
    nonisolated(nonsending) public func load<Value>(_ key: StorageKey<Value>) async throws -> Value? {
        try synchronously { try load(key) }
    }

    /// ``load(_:)`` with no expiry date.
    nonisolated(nonsending) public func entry<Value>(for key: StorageKey<Value>) async throws -> StoredEntry<
        Value
    >? {
        try await load(key).map { StoredEntry(value: $0, expiresAt: nil) }
    }

    /// Runs ``remove(_:)`` where it is called.
    nonisolated(nonsending) public func remove<Value>(_ key: StorageKey<Value>) async throws {
        try synchronously { try remove(key) }
    }
}

/// Calls `body`: in an async function, the way to pick an operation's synchronous form.
func synchronously<T>(_ body: () throws -> T) rethrows -> T {
    try body()
}
