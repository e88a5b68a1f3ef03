import Foundation
import Synchronization

/// A ``LocalStore`` over a UserDefaults suite, for small settings.
///
/// On Linux, UserDefaults writes `$XDG_CONFIG_HOME/<suite>.plist` — but only when
/// `synchronize()` is called; it never saves on its own. This store synchronizes after every
/// change and reports a failed save as ``StorageError/notPersisted(suite:)``. Values are stored
/// as envelopes (with schema version and expiry) encoded to property-list `Data`, so no value can
/// trip Foundation's `fatalError` for non-plist objects; the raw API
/// ``setPropertyList(_:forKey:)`` checks its value first and throws
/// ``StorageError/notAPropertyList(key:valueType:)`` instead.
public final class UserDefaultsStore: LocalStore, @unchecked Sendable {
    // @unchecked: UserDefaults is documented thread-safe; our own state is under `lock`.

    /// The suite's name.
    public let suiteName: String
    private let defaults: UserDefaults
    private let codec = EnvelopeCodec(format: .binary)
    private let lock = Mutex(())
    private let broadcaster = ChangeBroadcaster()

    /// Opens the suite `suiteName` (a valid key name, e.g. `TodoApp-Dog.profile`).
    ///
    /// - Throws: ``StorageError/invalidKey(_:reason:)`` for a bad suite name.
    public init(suiteName: String) throws {
        if let reason = StorageKeyRules.problem(with: suiteName) {
            throw StorageError.invalidKey(suiteName, reason: reason)
        }
        guard let defaults = UserDefaults(suiteName: suiteName) else {
            throw StorageError.invalidKey(suiteName, reason: .invalidCharacter("?"))
        }
        self.suiteName = suiteName
        self.defaults = defaults
    }

    /// Stores `value` under `key` and persists the suite.
    public func save<Value>(_ value: Value, for key: StorageKey<Value>, expiry: Expiry) throws {
        try key.validate()
        let blob = try codec.encode(value, for: key, expiresAt: expiry.date(from: Date()))
        try lock.withLock { _ in
            defaults.set(blob, forKey: key.name)
            try persist()
            broadcaster.publish(value, for: key.name)
        }
    }

    /// The value under `key`; `nil` if absent or expired.
    public func load<Value>(_ key: StorageKey<Value>) throws -> Value? {
        try key.validate()
        return try lock.withLock { _ in try loadLocked(key)?.value }
    }

    /// The value under `key` with its expiry date.
    public func entry<Value>(for key: StorageKey<Value>) throws -> StoredEntry<Value>? {
        try key.validate()
        return try lock.withLock { _ in try loadLocked(key) }
    }

    /// Removes the value under `key` and persists the suite.
    public func remove<Value>(_ key: StorageKey<Value>) throws {
        try key.validate()
        try lock.withLock { _ in
            defaults.removeObject(forKey: key.name)
            try persist()
            broadcaster.publish(nil, for: key.name)
        }
    }

    /// The value now, then every change.
    public func changes<Value>(for key: StorageKey<Value>) -> AsyncStream<Value?> {
        lock.withLock { _ in broadcaster.stream(for: key.name) { (try? loadLocked(key))?.value } }
    }

    /// Stores a raw property-list value (a `String`, number, `Date`, `Data`, or an array or
    /// dictionary of those) under `key`, checking it first.
    ///
    /// - Throws: ``StorageError/notAPropertyList(key:valueType:)`` where Foundation would crash.
    public func setPropertyList(_ value: Any, forKey key: String) throws {
        if let reason = StorageKeyRules.problem(with: key) {
            throw StorageError.invalidKey(key, reason: reason)
        }
        guard PropertyListSerialization.propertyList(value, isValidFor: .binary) else {
            throw StorageError.notAPropertyList(key: key, valueType: String(describing: type(of: value)))
        }
        try lock.withLock { _ in
            defaults.set(value, forKey: key)
            try persist()
        }
    }

    /// A raw property-list value stored with ``setPropertyList(_:forKey:)``.
    public func propertyList(forKey key: String) -> Any? {
        lock.withLock { _ in defaults.object(forKey: key) }
    }

    private func loadLocked<Value>(_ key: StorageKey<Value>) throws -> StoredEntry<Value>? {
        guard let blob = defaults.data(forKey: key.name) else { return nil }
        do {
            switch try codec.decode(blob, for: key) {
            case .value(let value, let expiresAt): return StoredEntry(value: value, expiresAt: expiresAt)
            case .expired:
                defaults.removeObject(forKey: key.name)
                try persist()
                return nil
            }
        } catch let error as NotAnEnvelope {
            throw StorageError.decodingFailed(key: key.name, underlying: error.underlying)
        }
    }

    private func persist() throws {
        guard defaults.synchronize() else { throw StorageError.notPersisted(suite: suiteName) }
    }
}
