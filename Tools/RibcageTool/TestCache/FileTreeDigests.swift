import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The SHA-256 of every file under a folder, found and read with the system's own calls.
///
/// The test cache hashes every file of a thousand targets on each run, where `FileManager`'s
/// enumerator, `URL` resource values and a mapped `Data` per file cost more than the hashing:
/// `readdir` gives each entry's type without a `stat`, and one buffer is reused for every read.
package enum FileTreeDigests {
    /// A file that could not be listed or read, with the system's reason.
    package struct ReadError: Error, CustomStringConvertible {
        /// The file or folder.
        package var path: String
        /// `strerror` of the failed call.
        package var reason: String

        package var description: String { "Cannot read \(path): \(reason)" }
    }

    /// Every regular file under `folder` (hidden ones too; `.build`, `.swiftpm` and `.git`
    /// folders and `.DS_Store` files left out), by path relative to `folder` with `/`, and the
    /// SHA-256 of its bytes. A symbolic link to a file counts as that file; one to a folder is
    /// not followed. A folder that does not exist has no files.
    ///
    /// - Throws: ``ReadError`` when a folder cannot be listed or a file cannot be read.
    package static func files(under folder: String) throws -> [(path: String, digest: String)] {
        var found: [(path: String, digest: String)] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        try walk(folder, relative: "", into: &found, buffer: &buffer, isRoot: true)
        return found
    }

    /// The SHA-256 of one file's bytes.
    ///
    /// - Throws: ``ReadError`` when the file cannot be opened or read.
    package static func digest(ofFile path: String) throws -> String {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        return try digest(ofFile: path, buffer: &buffer)
    }

    private static func walk(
        _ folder: String, relative: String, into found: inout [(path: String, digest: String)],
        buffer: inout [UInt8], isRoot: Bool
    ) throws {
        guard let directory = opendir(folder) else {
            if isRoot && errno == ENOENT { return }
            throw ReadError(path: folder, reason: String(cString: strerror(errno)))
        }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(
                    to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)
                ) {
                    String(cString: $0)
                }
            }
            if name == "." || name == ".." { continue }
            let path = folder + "/" + name
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            switch try kind(of: entry.pointee.d_type, at: path) {
            case .folder:
                if [".build", ".swiftpm", ".git"].contains(name) { continue }
                try walk(path, relative: relativePath, into: &found, buffer: &buffer, isRoot: false)
            case .file:
                if name == ".DS_Store" { continue }
                found.append((relativePath, try digest(ofFile: path, buffer: &buffer)))
            case .other:
                continue
            }
        }
    }

    private enum Kind { case folder, file, other }

    /// What an entry is: from `readdir`'s type when the file system gives one, else from `lstat`;
    /// a symbolic link is what it points at, except that a linked folder is not walked.
    private static func kind(of type: UInt8, at path: String) throws -> Kind {
        switch Int32(type) {
        case Int32(DT_DIR): return .folder
        case Int32(DT_REG): return .file
        case Int32(DT_LNK):
            var status = stat()
            guard stat(path, &status) == 0 else { return .other }  // A dangling link holds no bytes.
            return (status.st_mode & S_IFMT) == S_IFREG ? .file : .other
        case Int32(DT_UNKNOWN):
            var status = stat()
            guard lstat(path, &status) == 0 else {
                throw ReadError(path: path, reason: String(cString: strerror(errno)))
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: return .folder
            case S_IFREG: return .file
            case S_IFLNK: return try kind(of: UInt8(DT_LNK), at: path)
            default: return .other
            }
        default:
            return .other
        }
    }

    private static func digest(ofFile path: String, buffer: inout [UInt8]) throws -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var hash = SHA256()
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { hash.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
        return hash.finalize()
    }
}
