import Foundation

/// What can go wrong when storing or loading. Every case names the key or file involved.
public enum StorageError: Error, CustomStringConvertible {
    /// The key's name breaks the rules of ``StorageKey``.
    case invalidKey(String, reason: InvalidKeyReason)
    /// The file is not a readable property list. It was moved aside to `quarantinedAt` and kept;
    /// the key now reads as absent.
    case corruptFile(URL, quarantinedAt: URL, underlying: any Error)
    /// The stored value does not decode as the key's type, with the same schema version. The
    /// file is left in place.
    case decodingFailed(key: String, underlying: any Error)
    /// The value could not be encoded.
    case encodingFailed(key: String, underlying: any Error)
    /// The value was stored with another schema version and the key has no migration for it.
    case versionMismatch(key: String, stored: Int, expected: Int)
    /// The key's migration threw.
    case migrationFailed(key: String, from: Int, underlying: any Error)
    /// A raw value given to ``UserDefaultsStore`` is not a property list (Foundation would crash).
    case notAPropertyList(key: String, valueType: String)
    /// A file operation failed; `errno` says why.
    case fileSystem(operation: String, path: String, errno: Int32)
    /// UserDefaults did not persist (its `synchronize()` returned false).
    case notPersisted(suite: String)

    /// A message for a person.
    public var description: String {
        switch self {
        case .invalidKey(let name, let reason):
            "Invalid storage key '\(name)': \(reason)."
        case .corruptFile(let file, let quarantine, let underlying):
            "Corrupt storage file \(file.path): \(underlying). It was kept as \(quarantine.path)."
        case .decodingFailed(let key, let underlying):
            "The value stored for '\(key)' does not decode as the key's type: \(underlying)"
        case .encodingFailed(let key, let underlying):
            "The value for '\(key)' could not be encoded: \(underlying)"
        case .versionMismatch(let key, let stored, let expected):
            "'\(key)' was stored with schema version \(stored), the key expects \(expected) and has no migration."
        case .migrationFailed(let key, let from, let underlying):
            "Migrating '\(key)' from schema version \(from) failed: \(underlying)"
        case .notAPropertyList(let key, let valueType):
            "The value for '\(key)' (\(valueType)) is not a property list and cannot go in UserDefaults."
        case .fileSystem(let operation, let path, let code):
            "\(operation) failed for \(path): \(String(cString: strerror(code))) (errno \(code))."
        case .notPersisted(let suite):
            "UserDefaults suite '\(suite)' did not persist its changes."
        }
    }
}
