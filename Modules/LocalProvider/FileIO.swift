import Foundation
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which file a path named when it was read. A rename always puts a new file (a new identity)
/// at the path, so a store that compares identities under its folder lock acts only on the
/// file it read, never on one another process has put there since.
struct FileIdentity: Hashable, Sendable {
    var device: DeviceID
    var inode: Inode

    init(_ stat: Stat) {
        device = stat.deviceID
        inode = stat.inode
    }
}

/// What a path held when it was read.
enum FileContents {
    case absent
    case file(Data, FileIdentity)
    /// A folder, a FIFO or another non-file stands at the path.
    case notAFile(FileIdentity)
}

/// What a path held when it was opened: like ``FileContents``, with the file open, not read.
enum OpenedFile {
    case absent
    case file(FileDescriptor, FileIdentity)
    case notAFile(FileIdentity)
}

/// The file operations the stores share, with every failure a ``StorageError``.
enum FileIO {
    /// How many times a store reads a file again when another process replaced it between the
    /// read and the check, under the folder's lock, that it is still the file that was read. One
    /// replacement in between is ordinary, dozens in a row are not; and a check that can never
    /// succeed would otherwise read for ever, a core busy and the lock taken on every pass. Past
    /// this the read fails with ``StorageError/keptChanging(file:reads:)``.
    static let rereads = 32

    /// Files are readable and writable by their owner only.
    static let filePermissions: FilePermissions = .ownerReadWrite
    /// Folders are accessible by their owner only.
    static let directoryMode: mode_t = 0o700

    /// What `url` holds. A missing file is ``FileContents/absent``; a folder the process may not
    /// enter or a file it may not read is an error, not an absence.
    static func read(_ url: URL) throws(StorageError) -> FileContents {
        switch try open(url, .readOnly) {
        case .absent:
            return .absent
        case .notAFile(let identity):
            return .notAFile(identity)
        case .file(let descriptor, let identity):
            defer { try? descriptor.close() }  // read-only: closing cannot lose data
            return .file(try readToEnd(descriptor, path: url.path), identity)
        }
    }

    /// Opens `url`, following a symbolic link (a dotfile manager's link leads to the real file),
    /// and hands back the descriptor only when it is a regular file. A link that leads nowhere is
    /// ``OpenedFile/absent``.
    ///
    /// Opens without blocking: a plain `open` of a FIFO waits for a writer, for ever if none comes,
    /// before `fstat` could say it is no file of ours. `O_NONBLOCK` changes nothing for a regular
    /// file, whose reads and writes never wait for another process.
    static func open(
        _ url: URL, _ access: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = []
    ) throws(StorageError) -> OpenedFile {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(
                FilePath(url.path), access, options: options.union([.nonBlocking, .closeOnExec]))
        } catch Errno.noSuchFileOrDirectory {
            return .absent
        } catch Errno.isDirectory, Errno.noSuchAddressOrDevice {
            // A folder opened for writing, or a socket, which cannot be opened at all.
            guard let stat = try status(of: url, followingLinks: true) else { return .absent }
            return .notAFile(FileIdentity(stat))
        } catch {
            throw failure("open", url.path, error)
        }
        let stat: Stat
        do {
            stat = try descriptor.stat()
        } catch {
            try? descriptor.close()  // nothing was written through it
            throw .fileSystem(operation: "fstat", path: url.path, errno: error)
        }
        guard stat.type == .regular else {
            try? descriptor.close()  // nothing was written through it
            return .notAFile(FileIdentity(stat))
        }
        return .file(descriptor, FileIdentity(stat))
    }

    /// Whether `url` still holds `blob`: the same file, with the same bytes. The identity alone
    /// is not enough: once a file is replaced, the file system may give its inode number to a
    /// newer one, and an expired or damaged value read a moment ago would then stand for a fresh
    /// value another process saved since.
    static func holds(_ url: URL, _ blob: StoredBlob) throws(StorageError) -> Bool {
        guard case .file(let data, let identity) = try read(url) else { return false }
        return identity == blob.file && data == blob.data
    }

    /// The bytes from `offset` to the end of the file.
    static func readToEnd(_ descriptor: FileDescriptor, from offset: Int64 = 0, path: String)
        throws(StorageError)
        -> Data
    {
        var data = Data()
        var position = offset
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes {
                    try descriptor.read(fromAbsoluteOffset: position, into: $0)
                }
            } catch {
                throw failure("read", path, error)
            }
            if count == 0 { return data }
            data.append(contentsOf: chunk[..<count])
            position += Int64(count)
        }
    }

    /// The identity of the file at `url` now, or `nil` if none. Follows a symbolic link, as
    /// ``open(_:_:options:)`` does: compared with the identity of a file that was read, it must
    /// name the same file, the one the link leads to, or a store that checks "is it still the
    /// file I read?" before it sets a linked file aside would never find it so.
    static func identity(of url: URL) throws(StorageError) -> FileIdentity? {
        try status(of: url, followingLinks: true).map(FileIdentity.init)
    }

    /// `stat` of `url`, or `lstat` when not `followingLinks`; `nil` if nothing is there (or a
    /// link leads nowhere).
    static func status(of url: URL, followingLinks: Bool) throws(StorageError) -> Stat? {
        do {
            return try FilePath(url.path).stat(followTargetSymlink: followingLinks)
        } catch .noSuchFileOrDirectory {
            return nil
        } catch {
            throw .fileSystem(operation: followingLinks ? "stat" : "lstat", path: url.path, errno: error)
        }
    }

    /// Creates `url` and missing parents with mode 0700. An existing folder is fine; a file in its
    /// place, or a parent the process may not enter, is an error.
    static func createDirectory(_ url: URL) throws(StorageError) {
        if mkdir(url.path, directoryMode) == 0 { return }
        switch Errno(rawValue: errno) {
        case .fileExists:
            do {
                guard try FilePath(url.path).stat().type == .directory else {
                    throw Errno.notDirectory
                }
            } catch {
                throw failure("mkdir", url.path, error)
            }
        case .noSuchFileOrDirectory:
            try createDirectory(url.deletingLastPathComponent())
            try check("mkdir", url.path) { mkdir(url.path, directoryMode) }
        case let code:
            throw .fileSystem(operation: "mkdir", path: url.path, errno: code)
        }
    }

    /// The names in `folder`, without `.` and `..`.
    static func contents(of folder: URL) throws(StorageError) -> [String] {
        guard let directory = opendir(folder.path) else { throw failure("opendir", folder.path) }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw failure("readdir", folder.path) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Removes `url`; an absent file is fine.
    static func remove(_ url: URL) throws(StorageError) {
        if unlink(url.path) != 0 && errno != ENOENT { throw failure("unlink", url.path) }
    }

    /// Waits until the file's bytes are on the disk.
    static func sync(_ descriptor: FileDescriptor, path: String) throws(StorageError) {
        try check("fsync", path) { fsync(descriptor.rawValue) }
    }

    /// Waits until the folder's entries (a rename, a new name) are on the disk.
    static func syncDirectory(_ url: URL) throws(StorageError) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(
                FilePath(url.path), .readOnly, options: [.directory, .closeOnExec])
        } catch {
            throw failure("open", url.path, error)
        }
        defer { try? descriptor.close() }  // read-only: closing cannot lose data
        try sync(descriptor, path: url.path)
    }

    /// Runs a system call that returns -1 and sets `errno` on failure, retrying on `EINTR`.
    @discardableResult
    static func check(_ operation: String, _ path: String, _ call: () -> Int32) throws(StorageError) -> Int32
    {
        while true {
            let result = call()
            if result != -1 { return result }
            if errno == EINTR { continue }
            throw failure(operation, path)
        }
    }

    /// The error for a failed `operation` on `path`: `error` when it is an `Errno`, else `errno`.
    static func failure(_ operation: String, _ path: String, _ error: (any Error)? = nil) -> StorageError {
        .fileSystem(operation: operation, path: path, errno: error as? Errno ?? Errno(rawValue: errno))
    }
}
