import ContentDigest
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The digests of files, each file hashed once while its identity and modification time stay
/// the same: a run that builds an action per test target names the same test bundle in every
/// one of them, and hashing it is the costly part of making an action.
///
/// Blocking: reads whole files. Call it off the cooperative pool.
public final class FileDigests: Sendable {
    /// What names a file's contents for as long as it is not written: its device and inode,
    /// size and modification time (to the nanosecond).
    private struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var seconds: Int
        var nanoseconds: Int
    }

    private let known = Mutex<[String: (Identity, BlobDigest)]>([:])

    /// An empty memo.
    public init() {}

    /// The digest of the file at `path` (a link is followed), from the memo when the file is
    /// unchanged since it was hashed.
    ///
    /// - Throws: ``TestAction/UnreadableInput`` when the file cannot be read.
    public func digest(ofFile path: String) throws(TestAction.UnreadableInput) -> BlobDigest {
        let before = try Self.identity(of: path)
        if let (identity, digest) = known.withLock({ $0[path] }), identity == before { return digest }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TestAction.UnreadableInput(path: path, reason: "it cannot be opened")
        }
        defer { try? handle.close() }
        var hash = SHA256()
        var size: Int64 = 0
        do {
            while let chunk = try handle.read(upToCount: Self.chunkBytes), !chunk.isEmpty {
                hash.update(chunk)
                size += Int64(chunk.count)
            }
        } catch {
            throw TestAction.UnreadableInput(path: path, reason: "\(error)")
        }
        // A file written while it was read has no one digest: say so rather than keep a mix.
        guard try Self.identity(of: path) == before, size == before.size else {
            throw TestAction.UnreadableInput(path: path, reason: "it changed while it was hashed")
        }
        let digest = BlobDigest(hash: hash.finalize(), size: size)
        known.withLock { $0[path] = (before, digest) }
        return digest
    }

    /// The bytes read at a time.
    static let chunkBytes = 1 << 20

    private static func identity(of path: String) throws(TestAction.UnreadableInput) -> Identity {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw TestAction.UnreadableInput(path: path, reason: String(cString: strerror(errno)))
        }
        return Identity(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            seconds: status.st_mtim.tv_sec, nanoseconds: status.st_mtim.tv_nsec)
    }
}
