import Foundation
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Crash-safe file writes: a temporary file in the same folder, written fully, `fsync`ed, then
/// renamed over the target. A reader — or a process restarted after a kill at any instant —
/// sees the old file or the new one, never a mix.
///
/// Writers hold their folder's ``FolderLock`` from creating the temporary file to the rename,
/// so whoever holds the lock knows that every temporary file it finds was left by a writer that
/// died: ``removeTemporaryFiles(in:for:)`` sweeps them at once, however young.
enum AtomicFile {
    /// Writes `data` to `url` atomically, creating the file with mode 0600. With
    /// `syncingDirectory`, the folder is `fsync`ed after the rename too, so the new name itself
    /// survives a power loss. The caller holds the folder's lock.
    static func write(_ data: Data, to url: URL, syncingDirectory: Bool) throws {
        let temporary = temporaryFile(for: url)
        let descriptor = try create(temporary)
        do {
            do {
                _ = try descriptor.writeAll(data)
            } catch {
                throw FileIO.failure("write", temporary.path, error)
            }
            try FileIO.sync(descriptor, path: temporary.path)
            try close(descriptor, path: temporary.path)
        } catch {
            try? descriptor.close()  // the write already failed; that error is the one to report
            unlink(temporary.path)
            throw error
        }
        do {
            try FileIO.check("rename", url.path) { rename(temporary.path, url.path) }
        } catch {
            unlink(temporary.path)
            throw error
        }
        if syncingDirectory { try FileIO.syncDirectory(url.deletingLastPathComponent()) }
    }

    /// Creates a new, empty temporary file for `url` (mode 0600), open for appending: a new file
    /// that will be renamed into place once its first contents are on the disk.
    static func create(_ url: URL) throws(StorageError) -> FileDescriptor {
        do {
            return try FileDescriptor.open(
                FilePath(url.path), .readWrite, options: [.create, .exclusiveCreate, .append, .closeOnExec],
                permissions: FileIO.filePermissions)
        } catch {
            throw FileIO.failure("open", url.path, error)
        }
    }

    /// Closes a descriptor that was written to; a failed close may mean lost data, so it is an
    /// error.
    static func close(_ descriptor: FileDescriptor, path: String) throws(StorageError) {
        do {
            try descriptor.close()
        } catch {
            throw FileIO.failure("close", path, error)
        }
    }

    /// A new temporary file's name for `url`: `.<name>.<UUID>.tmp` in the same folder.
    static func temporaryFile(for url: URL) -> URL {
        url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp", isDirectory: false)
    }

    /// The name of the file a temporary file was for, or `nil` if `name` is not a temporary file.
    static func target(ofTemporary name: String) -> String? {
        let uuidLength = 36
        guard name.hasPrefix("."), name.hasSuffix(".tmp"), name.count > uuidLength + 7 else { return nil }
        let middle = name.dropFirst().dropLast(".tmp".count)
        let uuid = middle.suffix(uuidLength)
        guard UUID(uuidString: String(uuid)) != nil, middle.dropLast(uuidLength).last == "." else {
            return nil
        }
        return String(middle.dropLast(uuidLength + 1))
    }

    /// Removes the temporary files in `folder` whose target `isOurs` accepts: files that killed
    /// writers left behind. The caller holds the folder's lock, so no live writer owns one.
    static func removeTemporaryFiles(in folder: URL, for isOurs: (String) -> Bool) throws(StorageError) {
        for name in try FileIO.contents(of: folder) {
            guard let target = target(ofTemporary: name), isOurs(target) else { continue }
            try FileIO.remove(folder.appendingPathComponent(name, isDirectory: false))
        }
    }
}
