import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Crash-safe file writes: a temporary file in the same folder, written fully, `fsync`ed, then
/// renamed over the target and the folder `fsync`ed. A reader — or a process restarted after a
/// kill at any instant — sees the old file or the new one, never a mix.
enum AtomicFile {
    /// Files are readable and writable by their owner only.
    static let fileMode: mode_t = 0o600
    /// Folders are accessible by their owner only.
    static let directoryMode: mode_t = 0o700

    /// Writes `data` to `url` atomically, creating the file with mode 0600. With
    /// `syncingDirectory`, the folder is `fsync`ed after the rename too, so the new name itself
    /// survives a power loss.
    static func writeAtomically(_ data: Data, to url: URL, syncingDirectory: Bool) throws {
        let directory = url.deletingLastPathComponent().path
        let temporary = "\(directory)/.\(url.lastPathComponent).\(UUID().uuidString).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw failure("open", temporary) }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        do {
            try data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    guard let base = buffer.baseAddress else { break }
                    let written = write(descriptor, base + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw failure("write", temporary)
                    }
                    offset += written
                }
            }
            guard fsync(descriptor) == 0 else { throw failure("fsync", temporary) }
            closed = true
            guard close(descriptor) == 0 else { throw failure("close", temporary) }
            guard rename(temporary, url.path) == 0 else { throw failure("rename", url.path) }
        } catch {
            unlink(temporary)
            throw error
        }
        if syncingDirectory { syncDirectory(directory) }
    }

    /// Creates `url` and missing parents with mode 0700.
    static func createDirectory(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
        {
            return
        }
        try createDirectory(url.deletingLastPathComponent())
        if mkdir(url.path, directoryMode) != 0 && errno != EEXIST {
            throw failure("mkdir", url.path)
        }
    }

    /// Moves a corrupt file aside under a name that no existing file has, and returns it.
    static func quarantine(_ url: URL) throws -> URL {
        let stamp = Int(Date().timeIntervalSince1970)
        var attempt = 0
        while true {
            let suffix = attempt == 0 ? "" : "-\(attempt)"
            let target = url.deletingLastPathComponent()
                .appendingPathComponent("\(url.lastPathComponent).corrupt-\(stamp)\(suffix)")
            // link + unlink instead of rename: link fails if the target exists, so a previous
            // quarantined copy is never overwritten.
            if link(url.path, target.path) == 0 {
                unlink(url.path)
                syncDirectory(url.deletingLastPathComponent().path)
                return target
            }
            guard errno == EEXIST else { throw failure("link", target.path) }
            attempt += 1
        }
    }

    /// Removes `url`; an absent file is fine.
    static func remove(_ url: URL, syncingDirectory: Bool) throws {
        if unlink(url.path) != 0 && errno != ENOENT { throw failure("unlink", url.path) }
        if syncingDirectory { syncDirectory(url.deletingLastPathComponent().path) }
    }

    /// The file's contents, or `nil` if it does not exist.
    static func read(_ url: URL) throws -> Data? {
        do {
            return try Data(contentsOf: url)
        } catch CocoaError.fileReadNoSuchFile {
            return nil
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return nil }
            throw StorageError.fileSystem(operation: "read", path: url.path, errno: EIO)
        }
    }

    /// Removes temporary files that a killed writer left behind. Only old ones: a file younger
    /// than `age` may belong to a writer in another process that is still running.
    static func removeStaleTemporaryFiles(in directory: URL, olderThan age: TimeInterval = 600) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let cutoff = Date().addingTimeInterval(-age)
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let path = directory.appendingPathComponent(name).path
            let modified =
                (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            if let modified, modified < cutoff { unlink(path) }
        }
    }

    private static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private static func failure(_ operation: String, _ path: String) -> StorageError {
        .fileSystem(operation: operation, path: path, errno: errno)
    }
}
