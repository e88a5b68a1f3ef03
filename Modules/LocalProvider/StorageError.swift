import Foundation
import SystemPackage

/// What can go wrong when storing or loading. Every case names the key, file or folder involved.
public enum StorageError: Error, CustomStringConvertible {
    /// The key's name breaks the rules of ``StorageKey``.
    case invalidKey(String, reason: InvalidKeyReason)
    /// The expiry is not a point in time: `.seconds` of NaN or infinity, or such a date.
    case invalidExpiry(Expiry, key: String)
    /// What was stored could not be read. The file as it was is kept at `setAsideAt` — a name no
    /// earlier set-aside copy has — and what it held reads as absent from now on; every other
    /// value stays as it was. Saving again writes a fresh file.
    case damaged(file: URL, setAsideAt: URL, reason: DamageReason)
    /// The value could not be encoded.
    case encodingFailed(key: String, underlying: any Error)
    /// A raw value given to ``UserDefaultsStore`` is not a property list (Foundation would crash).
    case notAPropertyList(key: String, valueType: String)
    /// A file operation failed, for the reason `errno` gives: a folder the process may not
    /// enter, a file it may not read, a full disk. Nothing was set aside or changed.
    case fileSystem(operation: String, path: String, errno: Errno)
    /// Another process held the folder's lock for all of `waited`.
    case lockTimeout(folder: String, waited: Duration)
    /// The file changed between each of `reads` reads and the check, under the folder's lock,
    /// that must find it unchanged before a damaged file is set aside or an expired value
    /// removed: another process keeps replacing it (or a link in its place keeps being
    /// re-pointed). Nothing was set aside or removed; reading again later may well succeed.
    case keptChanging(file: URL, reads: Int)

    /// A message for a person.
    public var description: String {
        switch self {
        case .invalidKey(let name, let reason):
            "Invalid storage key '\(name)': \(reason)."
        case .invalidExpiry(let expiry, let key):
            // Not `\(expiry)`: Foundation traps describing a date of NaN seconds.
            switch expiry {
            case .never: "The expiry for '\(key)' is not a point in time."
            case .seconds(let seconds):
                "The expiry of \(seconds) seconds for '\(key)' is not a point in time."
            case .date(let date):
                "The expiry date of \(date.timeIntervalSince1970) seconds since 1970 for '\(key)' is not a point in time."
            }
        case .damaged(let file, let setAside, let reason):
            "\(file.path) could not be read (\(reason)). It was kept as \(setAside.path)."
        case .encodingFailed(let key, let underlying):
            "The value for '\(key)' could not be encoded: \(underlying)"
        case .notAPropertyList(let key, let valueType):
            "The value for '\(key)' (\(valueType)) is not a property list and cannot go in UserDefaults."
        case .fileSystem(let operation, let path, let errno):
            "\(operation) failed for \(path): \(errno) (errno \(errno.rawValue))."
        case .lockTimeout(let folder, let waited):
            "Another process kept \(folder) locked for \(waited); nothing was changed."
        case .keptChanging(let file, let reads):
            "\(file.path) changed after each of \(reads) reads, before it could be checked "
                + "(another process keeps replacing it); nothing was set aside or removed."
        }
    }
}

/// Why stored bytes could not be read.
public enum DamageReason: Sendable, CustomStringConvertible {
    /// The bytes are not what the store writes: truncated, random or empty.
    case unreadableBytes(underlying: any Error)
    /// A folder, a FIFO or another non-file stands where the file should be.
    case notAFile
    /// The value under `key` is of another type than the key's.
    case wrongType(key: String, underlying: any Error)
    /// The value under `key` was stored with schema version `stored`, and the key, at `expected`,
    /// has no migration for it: typically a newer version of the program wrote it.
    case unknownVersion(key: String, stored: Int, expected: Int)
    /// The key's migration from schema version `from` threw.
    case migrationFailed(key: String, from: Int, underlying: any Error)
    /// A ``JournaledStore``'s snapshot decoded but does not make a value (`init(snapshot:)` threw).
    case inconsistentSnapshot(underlying: any Error)
    /// These lines (counted from 1) of a ``JournaledStore``'s journal are not changes. The
    /// journal's other changes were kept.
    case journalLines([Int])

    /// A phrase for error messages.
    public var description: String {
        switch self {
        case .unreadableBytes(let underlying): "not a stored value: \(underlying)"
        case .notAFile: "not a regular file"
        case .wrongType(let key, let underlying):
            "the value for '\(key)' is not of the key's type: \(underlying)"
        case .unknownVersion(let key, let stored, let expected):
            "'\(key)' was stored with schema version \(stored); the key reads \(expected) and has no migration"
        case .migrationFailed(let key, let from, let underlying):
            "migrating '\(key)' from schema version \(from) failed: \(underlying)"
        case .inconsistentSnapshot(let underlying): "the snapshot is inconsistent: \(underlying)"
        case .journalLines(let lines):
            "journal line\(lines.count == 1 ? "" : "s") \(lines.map(String.init).joined(separator: ", ")) "
                + "\(lines.count == 1 ? "is not a change" : "are not changes")"
        }
    }
}
