import Domain
import LocalProvider

extension RepositoryError {
    /// `error`, thrown by a store while reading, as the app's error: another process's lock
    /// held past the store's wait is ``RepositoryError/inUse(location:waited:)`` (nothing was
    /// read or set aside), anything else ``RepositoryError/unreadable(reason:)``.
    static func reading(_ error: any Error) -> RepositoryError {
        if case StorageError.lockTimeout(let folder, let waited) = error {
            return .inUse(location: folder, waited: waited)
        }
        return .unreadable(reason: "\(error)")
    }

    /// `error`, thrown by a store while writing, as the app's error: another process's lock
    /// held past the store's wait is ``RepositoryError/inUse(location:waited:)`` (nothing was
    /// written), anything else ``RepositoryError/unwritable(reason:)``.
    static func writing(_ error: any Error) -> RepositoryError {
        if case StorageError.lockTimeout(let folder, let waited) = error {
            return .inUse(location: folder, waited: waited)
        }
        return .unwritable(reason: "\(error)")
    }
}
