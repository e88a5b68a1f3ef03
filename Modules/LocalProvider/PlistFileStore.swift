import Foundation
import Synchronization

/// A ``LocalStore`` of property-list files under a root folder.
///
/// - Layout: one file per key (`<root>/<key>.plist`, the default), or one file for the whole
///   store (`<root>/store.plist`), which suits many small values read together.
/// - Format: XML (readable, the default) or binary (smaller and faster; XML keeps dates to the
///   whole second only).
/// - Safety: every write goes to a temporary file that is `fsync`ed and renamed into place, so a
///   crash, `kill -9` or power loss at any moment leaves the old or the new value, never a torn
///   file. With ``Durability/durable``, the folder is `fsync`ed after each rename as well, so a
///   save that returned also survives a power loss (at about 1.5× the cost per write). Files
///   are created 0600 and folders 0700. A file that does not parse is moved aside (never
///   overwritten) and reported as ``StorageError/corruptFile(_:quarantinedAt:underlying:)``.
public final class PlistFileStore: LocalStore {
    /// How keys map to files.
    public enum Layout: Sendable, Equatable {
        /// `<root>/<key>.plist`.
        case filePerKey
        /// Every key in `<root>/<fileName>.plist`.
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
    /// How hard writes work to survive power loss.
    public let durability: Durability
    /// How keys map to files.
    public let layout: Layout
    private let codec: EnvelopeCodec
    private let lock = Mutex(())
    private let broadcaster = ChangeBroadcaster()

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
        self.root = root
        self.durability = durability
        self.layout = layout
        self.codec = EnvelopeCodec(format: format == .binary ? .binary : .xml)
        if case .singleFile(let name) = layout, let reason = StorageKeyRules.problem(with: name) {
            throw StorageError.invalidKey(name, reason: reason)
        }
        try AtomicFile.createDirectory(root)
        AtomicFile.removeStaleTemporaryFiles(in: root)
    }

    /// The file a key's value lives in.
    public func fileURL<Value>(for key: StorageKey<Value>) -> URL {
        switch layout {
        case .filePerKey: root.appendingPathComponent("\(key.name).plist")
        case .singleFile(let name): root.appendingPathComponent("\(name).plist")
        }
    }

    /// Stores `value` under `key` atomically.
    public func save<Value>(_ value: Value, for key: StorageKey<Value>, expiry: Expiry) throws {
        try key.validate()
        let blob = try codec.encode(value, for: key, expiresAt: expiry.date(from: Date()))
        try lock.withLock { _ in
            switch layout {
            case .filePerKey:
                try AtomicFile.writeAtomically(
                    blob, to: fileURL(for: key), syncingDirectory: durability == .durable)
            case .singleFile:
                var table = try readTable(fileURL(for: key))
                table[key.name] = blob
                try writeTable(table, to: fileURL(for: key))
            }
            broadcaster.publish(value, for: key.name)
        }
    }

    /// The value under `key`; `nil` if absent or expired (an expired value is removed).
    public func load<Value>(_ key: StorageKey<Value>) throws -> Value? {
        try key.validate()
        return try lock.withLock { _ in try loadLocked(key)?.value }
    }

    /// The value under `key` with its expiry date.
    public func entry<Value>(for key: StorageKey<Value>) throws -> StoredEntry<Value>? {
        try key.validate()
        return try lock.withLock { _ in try loadLocked(key) }
    }

    /// Removes the value under `key`.
    public func remove<Value>(_ key: StorageKey<Value>) throws {
        try key.validate()
        try lock.withLock { _ in
            try removeLocked(key)
            broadcaster.publish(nil, for: key.name)
        }
    }

    /// The value now, then every change.
    public func changes<Value>(for key: StorageKey<Value>) -> AsyncStream<Value?> {
        lock.withLock { _ in
            broadcaster.stream(for: key.name) { (try? loadLocked(key))?.value }
        }
    }

    private func loadLocked<Value>(_ key: StorageKey<Value>) throws -> StoredEntry<Value>? {
        let file = fileURL(for: key)
        let blob: Data?
        switch layout {
        case .filePerKey: blob = try AtomicFile.read(file)
        case .singleFile: blob = try readTable(file)[key.name]
        }
        guard let blob else { return nil }
        do {
            switch try codec.decode(blob, for: key) {
            case .value(let value, let expiresAt):
                return StoredEntry(value: value, expiresAt: expiresAt)
            case .expired:
                try removeLocked(key)
                return nil
            }
        } catch let error as NotAnEnvelope {
            guard case .filePerKey = layout else {
                throw StorageError.decodingFailed(key: key.name, underlying: error.underlying)
            }
            let quarantine = try AtomicFile.quarantine(file)
            throw StorageError.corruptFile(file, quarantinedAt: quarantine, underlying: error.underlying)
        }
    }

    private func removeLocked<Value>(_ key: StorageKey<Value>) throws {
        switch layout {
        case .filePerKey:
            try AtomicFile.remove(fileURL(for: key), syncingDirectory: durability == .durable)
        case .singleFile:
            var table = try readTable(fileURL(for: key))
            guard table.removeValue(forKey: key.name) != nil else { return }
            try writeTable(table, to: fileURL(for: key))
        }
    }

    private func readTable(_ file: URL) throws -> [String: Data] {
        guard let data = try AtomicFile.read(file) else { return [:] }
        do {
            return try PropertyListDecoder().decode([String: Data].self, from: data)
        } catch {
            let quarantine = try AtomicFile.quarantine(file)
            throw StorageError.corruptFile(file, quarantinedAt: quarantine, underlying: error)
        }
    }

    private func writeTable(_ table: [String: Data], to file: URL) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = codec.format
        try AtomicFile.writeAtomically(
            try encoder.encode(table), to: file, syncingDirectory: durability == .durable)
    }
}
