import Foundation

/// A ``LocalStore`` in a UserDefaults suite's file, for small settings.
///
/// On Linux, UserDefaults keeps a suite in `$XDG_CONFIG_HOME/<suite>.plist` (`~/.config` when
/// unset), an XML property list, and rewrites it in place when it saves: a process killed
/// during that write leaves an empty or torn file that UserDefaults then reads as an empty
/// suite, without an error, and processes saving at once lose each other's keys. So this store
/// reads and writes that file itself, as ``PlistFileStore`` writes one file for all keys: each
/// change under a lock on the folder, written to a temporary file, `fsync`ed and renamed into
/// place. Once `save` returns, the value survives the process being killed; with
/// ``PlistFileStore/Durability/durable``, a power loss too. Processes writing different keys keep
/// each other's values.
///
/// Values are envelopes (with schema version and expiry) encoded to property-list `Data`, in
/// the same file UserDefaults reads, so the suite stays readable by `UserDefaults(suiteName:)`.
/// A damaged suite file is set aside and reported (see ``PropertyListStore``), never read as
/// empty. The raw API, ``setPropertyList(_:forKey:)``, checks its value first and throws
/// ``StorageError/notAPropertyList(key:valueType:)`` where Foundation would crash.
public final class UserDefaultsStore: PropertyListStore, @unchecked Sendable {
    /// The name given to `UserDefaults(suiteName:)`, which also names the file (``fileURL``).
    public let suiteName: String
    /// The suite's file.
    public let fileURL: URL
    private let table: PropertyListTable

    /// Opens the suite `suiteName` (a valid key name, e.g. `TodoApp-Dog.profile`).
    ///
    /// - Parameters:
    ///   - durability: ``PlistFileStore/Durability/atomic`` (the default) or
    ///     ``PlistFileStore/Durability/durable``.
    ///   - lockTimeout: The longest a change waits for another process's change.
    ///   - environment: Read for `XDG_CONFIG_HOME` and `HOME`.
    ///   - clock: The time that expiry is measured against; tests pass their own.
    /// - Throws: ``StorageError/invalidKey(_:reason:)`` for a bad suite name.
    public init(
        suiteName: String, durability: PlistFileStore.Durability = .atomic,
        lockTimeout: Duration = .seconds(5),
        environment: [String: String] = ProcessInfo.processInfo.environment,
        clock: @escaping @Sendable () -> Date = Date.init
    ) throws {
        if let reason = StorageKeyRules.problem(with: suiteName) {
            throw StorageError.invalidKey(suiteName, reason: reason)
        }
        let folder = StorageLocation.configDirectory(environment: environment)
        self.suiteName = suiteName
        fileURL = folder.appendingPathComponent("\(suiteName).plist", isDirectory: false)
        table = PropertyListTable(
            url: fileURL, format: .xml, syncsDirectory: durability == .durable,
            lock: FolderLock(folder: folder, timeout: lockTimeout))
        try FileIO.createDirectory(folder)
        try super.init(backend: table, format: .binary, clock: clock)
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
        try table.setRawValue(value, named: key)
    }

    /// A raw property-list value stored with ``setPropertyList(_:forKey:)`` or by UserDefaults.
    public func propertyList(forKey key: String) throws -> Any? {
        try table.rawValue(named: key)
    }
}
