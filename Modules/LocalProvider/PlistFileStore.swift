import Foundation

/// A ``LocalStore`` of property-list files under a root folder.
///
/// - Layout: one file per key (`<root>/<key>.plist`, the default), or one file for the whole
///   store (`<root>/<name>.plist`), which suits many small values read together.
/// - Format: XML (readable, the default) or binary (smaller and faster). Note that XML keeps
///   dates to the whole second; the store's own expiry dates do not depend on that.
/// - Safety: every write goes to a temporary file that is `fsync`ed and renamed into place, so a
///   crash, `kill -9` or power loss at any moment leaves the old or the new value, never a torn
///   file. With ``Durability/durable``, the folder is `fsync`ed after each rename as well, so a
///   save that returned also survives a power loss. Files are created 0600 and folders 0700. A
///   file that does not parse is moved aside (never overwritten) and reported as
///   ``StorageError/corruptFile(_:quarantinedAt:underlying:)``; the key then reads as absent.
public final class PlistFileStore: LocalStore {
    /// How keys map to files.
    public enum Layout: Sendable, Equatable {
        /// `<root>/<key>.plist`.
        case filePerKey
        /// Every key in `<root>/<name>.plist`.
        case singleFile(name: String)
    }

    /// How hard a write works to survive power loss.
    public enum Durability: Sendable, Equatable {
        /// Temporary file, `fsync`, rename: after any crash, the old value or the new one.
        case atomic
        /// As ``atomic``, and the folder is `fsync`ed after the rename, so the new value is the
        /// one that survives a power loss once `save` has returned.
        case durable
    }

    /// The folder the files live in.
    public let root: URL
    /// How keys map to files.
    public let layout: Layout
    /// How hard writes work to survive power loss.
    public let durability: Durability
    private let storage: EnvelopeStore<FileBlobs>

    /// Creates a store in `root`, which is created (0700) if missing.
    ///
    /// - Parameters:
    ///   - root: The folder. ``StorageLocation/dataDirectory(namespace:environment:)`` gives the
    ///     XDG default for an app.
    ///   - layout: One file per key, or one file for all.
    ///   - format: `.xml` or `.binary`.
    ///   - durability: ``Durability/atomic`` (the default) or ``Durability/durable``.
    public init(
        root: URL, layout: Layout = .filePerKey, format: PropertyListSerialization.PropertyListFormat = .xml,
        durability: Durability = .atomic
    ) throws {
        if case .singleFile(let name) = layout, let reason = StorageKeyRules.problem(with: name) {
            throw StorageError.invalidKey(name, reason: reason)
        }
        self.root = root
        self.layout = layout
        self.durability = durability
        let format: PropertyListSerialization.PropertyListFormat = format == .binary ? .binary : .xml
        storage = EnvelopeStore(
            backend: FileBlobs(
                root: root, layout: layout, format: format, syncsDirectory: durability == .durable),
            format: format)
        try AtomicFile.createDirectory(root)
        AtomicFile.removeStaleTemporaryFiles(in: root)
    }

    /// Creates a store in the app's XDG data folder: `$XDG_DATA_HOME/<namespace>` (or
    /// `~/.local/share/<namespace>`), one namespace per app flavor, e.g. `TodoApp-Dog`.
    ///
    /// - Throws: ``StorageError/invalidKey(_:reason:)`` for a namespace that is not a valid name.
    public convenience init(
        namespace: String, layout: Layout = .filePerKey,
        format: PropertyListSerialization.PropertyListFormat = .xml,
        durability: Durability = .atomic, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        if let reason = StorageKeyRules.problem(with: namespace) {
            throw StorageError.invalidKey(namespace, reason: reason)
        }
        try self.init(
            root: StorageLocation.dataDirectory(namespace: namespace, environment: environment),
            layout: layout,
            format: format, durability: durability)
    }

    /// The file a key's value lives in.
    public func fileURL<Value>(for key: StorageKey<Value>) -> URL {
        storage.backend.fileURL(forName: key.name)
    }

    /// Stores `value` under `key` atomically.
    public func save<Value>(_ value: Value, for key: StorageKey<Value>, expiry: Expiry) throws {
        try storage.save(value, for: key, expiry: expiry)
    }

    /// The value under `key`; `nil` if absent or expired (an expired value is removed).
    public func load<Value>(_ key: StorageKey<Value>) throws -> Value? {
        try storage.entry(for: key)?.value
    }

    /// The value under `key` with its expiry date.
    public func entry<Value>(for key: StorageKey<Value>) throws -> StoredEntry<Value>? {
        try storage.entry(for: key)
    }

    /// Removes the value under `key`.
    public func remove<Value>(_ key: StorageKey<Value>) throws {
        try storage.remove(key)
    }

    /// The value now, then every change.
    public func changes<Value>(for key: StorageKey<Value>) -> AsyncStream<Value?> {
        storage.changes(for: key)
    }
}

/// Envelopes in files: one per key, or all in one table file.
struct FileBlobs: BlobBackend {
    let root: URL
    let layout: PlistFileStore.Layout
    let format: PropertyListSerialization.PropertyListFormat
    let syncsDirectory: Bool

    func fileURL(forName name: String) -> URL {
        switch layout {
        case .filePerKey: root.appendingPathComponent("\(name).plist")
        case .singleFile(let table): root.appendingPathComponent("\(table).plist")
        }
    }

    func readBlob(named name: String) throws -> Data? {
        switch layout {
        case .filePerKey: try AtomicFile.read(fileURL(forName: name))
        case .singleFile: try readTable(fileURL(forName: name))[name]
        }
    }

    func writeBlob(_ blob: Data, named name: String) throws {
        let file = fileURL(forName: name)
        switch layout {
        case .filePerKey:
            try AtomicFile.writeAtomically(blob, to: file, syncingDirectory: syncsDirectory)
        case .singleFile:
            var table = try readTable(file)
            table[name] = blob
            try writeTable(table, to: file)
        }
    }

    func removeBlob(named name: String) throws {
        let file = fileURL(forName: name)
        switch layout {
        case .filePerKey:
            try AtomicFile.remove(file, syncingDirectory: syncsDirectory)
        case .singleFile:
            var table = try readTable(file)
            guard table.removeValue(forKey: name) != nil else { return }
            try writeTable(table, to: file)
        }
    }

    func unreadableBlob(named name: String, underlying: any Error) throws -> StorageError {
        // In a table file, the table itself parsed, so only this entry is bad; the file stays.
        guard case .filePerKey = layout else { return .decodingFailed(key: name, underlying: underlying) }
        let file = fileURL(forName: name)
        return .corruptFile(file, quarantinedAt: try AtomicFile.quarantine(file), underlying: underlying)
    }

    private func readTable(_ file: URL) throws -> [String: Data] {
        guard let data = try AtomicFile.read(file) else { return [:] }
        do {
            return try PropertyListDecoder().decode([String: Data].self, from: data)
        } catch {
            throw StorageError.corruptFile(
                file, quarantinedAt: try AtomicFile.quarantine(file), underlying: error)
        }
    }

    private func writeTable(_ table: [String: Data], to file: URL) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        try AtomicFile.writeAtomically(try encoder.encode(table), to: file, syncingDirectory: syncsDirectory)
    }
}
