import Foundation

/// A ``LocalStore`` of property-list files under a root folder.
///
/// - Layout: one file per key (`<root>/<key>.plist`, the default), or one file for the whole
///   store (`<root>/<name>.plist`), which suits many small values read together.
/// - Format: XML (readable, the default) or binary (smaller and faster). XML keeps dates to the
///   whole second; the store's own expiry dates do not depend on that.
/// - What a completed save survives: every write goes to a temporary file that is `fsync`ed and
///   renamed into place, so once `save` returns the value survives the process being killed,
///   and a kill at any moment leaves the old value or the new one, never a torn file. A power
///   loss leaves the old or the new value too; with ``Durability/durable`` the folder is
///   `fsync`ed after each rename as well, so it is the new one. Files are created 0600 and
///   folders 0700.
/// - Processes sharing the folder: each change is made under a lock on the folder (`flock`), so
///   processes writing different keys — in one file too — keep each other's values; the last
///   save of a key wins. A reader sees each value whole. Waiting for the lock is bounded by
///   `lockTimeout`, then the change fails with ``StorageError/lockTimeout(folder:waited:)``.
/// - Damage: see ``PropertyListStore``; a damaged file is set aside and reported, never lost.
public final class PlistFileStore: PropertyListStore, @unchecked Sendable {
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

    /// Creates a store in `root`, which is created (0700) if missing, and removes the temporary
    /// files that killed writers left there — unless another process holds the folder's lock
    /// then: creating a store never waits for it.
    ///
    /// - Parameters:
    ///   - root: The folder. ``StorageLocation/dataDirectory(namespace:environment:)`` gives the
    ///     XDG default for an app.
    ///   - layout: One file per key, or one file for all.
    ///   - format: `.xml` or `.binary`.
    ///   - durability: ``Durability/atomic`` (the default) or ``Durability/durable``.
    ///   - lockTimeout: The longest a change waits for another process's change to the folder.
    ///   - clock: The time that expiry is measured against; tests pass their own.
    public init(
        root: URL, layout: Layout = .filePerKey, format: PropertyListSerialization.PropertyListFormat = .xml,
        durability: Durability = .atomic, lockTimeout: Duration = .seconds(5),
        clock: @escaping @Sendable () -> Date = Date.init
    ) throws {
        if case .singleFile(let name) = layout, let reason = StorageKeyRules.problem(with: name) {
            throw StorageError.invalidKey(name, reason: reason)
        }
        self.root = root
        self.layout = layout
        self.durability = durability
        let format: PropertyListSerialization.PropertyListFormat = format == .binary ? .binary : .xml
        let lock = FolderLock(folder: root, timeout: lockTimeout)
        let syncs = durability == .durable
        let backend: any BlobBackend =
            switch layout {
            case .filePerKey:
                FilePerKeyBlobs(root: root, syncsDirectory: syncs, lock: lock)
            case .singleFile(let name):
                PropertyListTable(
                    url: root.appendingPathComponent("\(name).plist", isDirectory: false), format: format,
                    syncsDirectory: syncs,
                    lock: lock)
            }
        try FileIO.createDirectory(root)
        try super.init(backend: backend, format: format, clock: clock)
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
            layout: layout, format: format, durability: durability)
    }

    /// The file a key's value lives in.
    public func fileURL<Value>(for key: StorageKey<Value>) -> URL {
        backend.file(for: key.name)
    }
}
