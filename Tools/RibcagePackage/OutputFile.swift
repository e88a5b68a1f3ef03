import Foundation

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// A file `ribcage` writes what it was asked for to: a drawing, a listing, README's graph block.
package enum OutputFile {
    /// Writes `data` to the file at `path`, replacing what it held.
    ///
    /// - Throws: ``RibcageError/outputUnwritable(path:reason:)`` naming the system's reason
    ///   (no such folder, permission denied, a folder in the way).
    package static func write(_ data: Data, to path: String) throws {
        do {
            let file = try FileDescriptor.open(
                FilePath(path), .writeOnly, options: [.create, .truncate],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
            try file.closeAfter { _ = try file.writeAll(data) }
        } catch let error as Errno {
            throw RibcageError.outputUnwritable(path: path, reason: error.description)
        }
    }
}
