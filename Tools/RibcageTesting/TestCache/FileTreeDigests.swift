import BlockingWork
import ContentDigest
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
/// enumerator, `URL` resource values and a mapped `Data` per file cost more than the hashing.
/// Here `readdir` gives each entry's type without a `stat`, each file is opened relative to its
/// folder's descriptor (one path component for the kernel to look up, not the whole path), and
/// one buffer is reused for every read. ``files(underEach:)`` spreads folders over the cores.
package enum FileTreeDigests {
    /// A file that could not be listed or read, with the system's reason.
    package struct ReadError: Error, CustomStringConvertible {
        /// The file or folder.
        package var path: String
        /// `strerror` of the failed call.
        package var reason: String

        package var description: String { "Cannot read \(path): \(reason)" }

        init(path: String, errno code: Int32) {
            self.path = path
            reason = String(cString: strerror(code))
        }
    }

    /// A file found under a folder: its path relative to the folder, with `/`, and the SHA-256
    /// of its bytes.
    package typealias File = (path: String, digest: String)

    /// A folder the walk listed: its path relative to the walked folder (empty for that folder
    /// itself), and the names in it but for hidden ones, in the order `readdir` gave them.
    package typealias Listing = (path: String, names: [String])

    /// What the walk of one folder found.
    package typealias Walked = (files: [File], listings: [Listing])

    /// Every regular file under `folder` (hidden ones too; `.build`, `.swiftpm` and `.git`
    /// folders and `.DS_Store` files left out), in no particular order. A symbolic link counts
    /// as what it points at, under the link's name: a file, or a folder that is walked as
    /// SwiftPM walks it (it compiles the sources in a linked folder), except a link back to a
    /// folder the walk is already inside; a dangling one (or a loop of links) is skipped. A
    /// folder that does not exist has no files.
    ///
    /// - Throws: ``ReadError`` when a folder cannot be listed or a file cannot be read.
    package static func files(under folder: String) throws -> [File] {
        var walker = Walker()
        return try walker.files(under: folder)
    }

    /// ``files(under:)`` of each folder, the folders shared out among the processor's cores;
    /// in the order given.
    ///
    /// The calling thread works too and waits for the others, which only hash files: this is
    /// for synchronous callers that would otherwise do the same work alone. Async code calls
    /// it through ``DedicatedThread`` (``TestCacheInputs/keysOffThePool(for:withParts:)``),
    /// never from a thread of the cooperative pool.
    ///
    /// - Throws: The first ``ReadError`` met, in the order of `folders`.
    /// Each folder's listings come with its files: the test cache digests a recorded listing of
    /// a folder the keys walked from them, rather than listing it again.
    package static func files(underEach folders: [String]) throws -> [Walked] {
        try files(underEach: folders) { $1 }
    }

    /// ``files(underEach:)``, each folder's walk handed at once to `then`, on the core that
    /// walked it, with its index in `folders`: what is made of each walk is made on all cores
    /// too. The results of `then`, in the order of `folders`.
    ///
    /// - Throws: The first error met, in the order of `folders`: a ``ReadError``, or what
    ///   `then` threw.
    package static func files<Value: Sendable>(
        underEach folders: [String],
        then transform: @Sendable (_ index: Int, _ walked: Walked) throws -> Value
    ) throws -> [Value] {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, folders.count))
        let results = Results<Value>(count: folders.count)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            // Every `workers`-th folder, so each worker hashes its share without taking turns,
            // through one walker and so one buffer: a buffer per folder was 64 MB allocated and
            // zeroed for the 1,000 folders of a look-up.
            var walker = Walker()
            for index in stride(from: worker, to: folders.count, by: workers) {
                results.store(
                    Result {
                        let files = try walker.files(under: folders[index])
                        return try transform(index, (files, walker.listings))
                    }, at: index)
            }
        }
        return try results.values().map { try $0.get() }
    }

    /// The SHA-256 of one file's bytes.
    ///
    /// - Throws: ``ReadError`` when the file cannot be opened or read.
    package static func digest(ofFile path: String) throws -> String {
        var walker = Walker()
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadError(path: path, errno: errno) }
        return try walker.digest(of: descriptor, path: path)
    }

    /// One walk's state: what it found, and the buffer every read goes through.
    private struct Walker {
        var found: [File] = []
        var listings: [Listing] = []
        /// Left uninitialized: every byte used is first written by `read`.
        var buffer = [UInt8](unsafeUninitializedCapacity: 64 * 1024) { $1 = 64 * 1024 }
        /// The folders the walk is inside, each open, with its identity once a link needed it.
        var enclosing: [(descriptor: Int32, identity: Identity?)] = []

        /// A folder's device and inode.
        struct Identity: Equatable {
            var device: UInt64
            var inode: UInt64
        }

        /// The files under `folder` (``FileTreeDigests/files(under:)``); the walker can walk again.
        mutating func files(under folder: String) throws -> [File] {
            found = []
            listings = []
            enclosing = []
            let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ENOENT { return [] }
                throw ReadError(path: folder, errno: errno)
            }
            try walk(descriptor, path: folder, relative: "")
            return found
        }

        /// Whether the folder `status` describes is one the walk is inside: only a link can lead
        /// back to one, so the enclosing folders are identified (one `fstat` each) only when a
        /// link to a folder is met, not one `fstat` per folder walked.
        mutating func isEnclosing(_ status: stat) throws -> Bool {
            let target = Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            for index in enclosing.indices {
                if enclosing[index].identity == nil {
                    var own = stat()
                    guard fstat(enclosing[index].descriptor, &own) == 0 else {
                        throw ReadError(path: "a folder being walked", errno: errno)
                    }
                    enclosing[index].identity = Identity(
                        device: UInt64(own.st_dev), inode: UInt64(own.st_ino))
                }
                if enclosing[index].identity == target { return true }
            }
            return false
        }

        /// Walks the folder open at `descriptor`, and closes it.
        mutating func walk(_ descriptor: Int32, path: String, relative: String) throws {
            guard let directory = fdopendir(descriptor) else {
                let code = errno
                close(descriptor)
                throw ReadError(path: path, errno: code)
            }
            defer { closedir(directory) }
            let folder = dirfd(directory)
            enclosing.append((folder, nil))
            defer { enclosing.removeLast() }
            var visible: [String] = []
            while true {
                // `readdir` returns nil both at the end of the folder and on a failed read
                // (EIO, ESTALE); only errno tells them apart. A listing cut short would give a
                // key from part of the files, and a change in the rest would keep a green hit.
                errno = 0
                guard let entry = readdir(directory) else {
                    if errno != 0 { throw ReadError(path: path, errno: errno) }
                    break
                }
                let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                    pointer.withMemoryRebound(
                        to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)
                    ) { String(cString: $0) }
                }
                if name == "." || name == ".." { continue }
                if name.utf8.first != UInt8(ascii: ".") { visible.append(name) }
                let relativePath = relative.isEmpty ? name : relative + "/" + name
                switch try Self.kind(of: entry.pointee.d_type, named: name, in: folder, path: path) {
                case .folder(let linked):
                    if [".build", ".swiftpm", ".git"].contains(name) { continue }
                    // A link back to a folder the walk is inside would be walked forever.
                    if let linked, try isEnclosing(linked) { continue }
                    let child = openat(folder, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                    guard child >= 0 else { throw ReadError(path: path + "/" + name, errno: errno) }
                    try walk(child, path: path + "/" + name, relative: relativePath)
                case .file:
                    if name == ".DS_Store" { continue }
                    let file = openat(folder, name, O_RDONLY | O_CLOEXEC)
                    guard file >= 0 else { throw ReadError(path: path + "/" + name, errno: errno) }
                    found.append((relativePath, try digest(of: file, path: path + "/" + name)))
                case .other:
                    continue
                }
            }
            listings.append((relative, visible))
        }

        /// Hashes the file open at `descriptor` to its end, and closes it.
        mutating func digest(of descriptor: Int32, path: String) throws -> String {
            defer { close(descriptor) }
            var hash = SHA256()
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw ReadError(path: path, errno: errno)
                }
                if count == 0 { break }
                buffer.withUnsafeBytes { hash.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
            return hash.finalize()
        }

        enum Kind {
            /// A folder; reached through a link, with what `fstatat` found at its end.
            case folder(linked: stat?)
            case file, other
        }

        /// What an entry is: from `readdir`'s type when the file system gives one, else from
        /// `fstatat`; a symbolic link is what it points at.
        static func kind(of type: UInt8, named name: String, in folder: Int32, path: String) throws -> Kind {
            switch Int32(type) {
            case Int32(DT_DIR): return .folder(linked: nil)
            case Int32(DT_REG): return .file
            case Int32(DT_LNK):
                var status = stat()
                guard fstatat(folder, name, &status, 0) == 0 else {
                    // A dangling link, or a loop of links, holds no bytes; any other failure
                    // (EACCES, EIO) could hide a file, so it is an error.
                    if errno == ENOENT || errno == ELOOP || errno == ENOTDIR { return .other }
                    throw ReadError(path: path + "/" + name, errno: errno)
                }
                switch status.st_mode & S_IFMT {
                case S_IFREG: return .file
                case S_IFDIR: return .folder(linked: status)
                default: return .other
                }
            case Int32(DT_UNKNOWN):
                var status = stat()
                guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
                    throw ReadError(path: path + "/" + name, errno: errno)
                }
                switch status.st_mode & S_IFMT {
                case S_IFDIR: return .folder(linked: nil)
                case S_IFREG: return .file
                case S_IFLNK: return try kind(of: UInt8(DT_LNK), named: name, in: folder, path: path)
                default: return .other
                }
            default:
                return .other
            }
        }
    }

    /// The workers' results, each slot written once by the one worker that owns its index.
    private final class Results<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [Result<Value, any Error>?]

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        func store(_ result: Result<Value, any Error>, at index: Int) {
            lock.withLock { slots[index] = result }
        }

        /// Every slot; call after the workers are done, when each has been stored.
        func values() -> [Result<Value, any Error>] {
            lock.withLock { slots.map { $0 ?? .failure(Unfilled()) } }
        }

        /// A slot no worker stored: `concurrentPerform` returned before its worker ran, which it
        /// never does.
        struct Unfilled: Error {}
    }
}
