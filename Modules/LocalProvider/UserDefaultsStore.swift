import Foundation

/// A ``LocalStore`` over a UserDefaults suite, for small settings.
///
/// On Linux, UserDefaults writes `$XDG_CONFIG_HOME/<suite>.plist` — but only when
/// `synchronize()` is called; it never saves on its own. This store synchronizes after every
/// change and reports a failed save as ``StorageError/notPersisted(suite:)``. Values are stored
/// as envelopes (with schema version and expiry) encoded to property-list `Data`, so no value can
/// trip Foundation's `fatalError` for non-plist objects; the raw API
/// ``setPropertyList(_:forKey:)`` checks its value first and throws
/// ``StorageError/notAPropertyList(key:valueType:)`` instead.
public final class UserDefaultsStore: LocalStore {
    /// The suite's name.
    public let suiteName: String
    private let storage: EnvelopeStore<DefaultsBlobs>

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
        storage = EnvelopeStore(
            backend: DefaultsBlobs(defaults: defaults, suiteName: suiteName), format: .binary)
    }

    /// Stores `value` under `key` and persists the suite.
    public func save<Value>(_ value: Value, for key: StorageKey<Value>, expiry: Expiry) throws {
        try storage.save(value, for: key, expiry: expiry)
    }

    /// The value under `key`; `nil` if absent or expired.
    public func load<Value>(_ key: StorageKey<Value>) throws -> Value? {
        try storage.entry(for: key)?.value
    }

    /// The value under `key` with its expiry date.
    public func entry<Value>(for key: StorageKey<Value>) throws -> StoredEntry<Value>? {
        try storage.entry(for: key)
    }

    /// Removes the value under `key` and persists the suite.
    public func remove<Value>(_ key: StorageKey<Value>) throws {
        try storage.remove(key)
    }

    /// The value now, then every change.
    public func changes<Value>(for key: StorageKey<Value>) -> AsyncStream<Value?> {
        storage.changes(for: key)
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
        try storage.withLock {
            storage.backend.defaults.set(value, forKey: key)
            try storage.backend.persist()
        }
    }

    /// A raw property-list value stored with ``setPropertyList(_:forKey:)``.
    public func propertyList(forKey key: String) -> Any? {
        storage.withLock { storage.backend.defaults.object(forKey: key) }
    }
}

/// Envelopes as `Data` values in a UserDefaults suite, synchronized after every change.
struct DefaultsBlobs: BlobBackend, @unchecked Sendable {
    // @unchecked: UserDefaults is documented as thread-safe, and is only used under the store's lock.
    let defaults: UserDefaults
    let suiteName: String

    func readBlob(named name: String) throws -> Data? {
        defaults.data(forKey: name)
    }

    func writeBlob(_ blob: Data, named name: String) throws {
        defaults.set(blob, forKey: name)
        try persist()
    }

    func removeBlob(named name: String) throws {
        defaults.removeObject(forKey: name)
        try persist()
    }

    func unreadableBlob(named name: String, underlying: any Error) throws -> StorageError {
        .decodingFailed(key: name, underlying: underlying)
    }

    func persist() throws {
        guard defaults.synchronize() else { throw StorageError.notPersisted(suite: suiteName) }
    }
}
