import Foundation

/// One stored value's bytes, as read, with what identifies the stored copy: a store removes or
/// sets aside a value only while it is still the one it read.
struct StoredBlob {
    var data: Data
    /// The file the bytes came from, when it was read.
    var file: FileIdentity
    /// For a value that no store wrote (UserDefaults' own API), its type; it is not a value of
    /// any key.
    var rawPropertyListType: String?
}

/// Where a ``PropertyListStore`` keeps its encoded envelopes: a file per key, or one file for
/// all. Called from any thread at once; a backend takes the folder's ``FolderLock`` itself for
/// every change.
protocol BlobBackend: Sendable {
    /// The lock of the folder the files live in, which the store also takes to publish a change
    /// in the order it was made.
    var lock: FolderLock { get }
    /// The file that holds the value named `name`.
    func file(for name: String) -> URL
    /// The stored bytes named `name`, or `nil`. A file that is damaged as a whole is set aside
    /// here and thrown as ``StorageError/damaged(file:setAsideAt:reason:)``.
    func read(_ name: String) throws -> StoredBlob?
    func write(_ blob: Data, named name: String) throws
    func remove(named name: String) throws
    /// Removes `blob` if it is still what `name` holds; `false` if another save replaced it.
    func remove(_ blob: StoredBlob, named name: String) throws -> Bool
    /// Sets aside the file that holds `blob`, if `name` still holds it, and returns where it
    /// went; `nil` if another save replaced it.
    func setAside(_ blob: StoredBlob, named name: String) throws -> URL?
    /// Removes temporary files that killed writers left behind, unless another process holds
    /// the folder's lock: then it may be writing one, and they are left for the next store that
    /// opens. Never waits for the lock.
    func removeTemporaryFiles() throws
}
