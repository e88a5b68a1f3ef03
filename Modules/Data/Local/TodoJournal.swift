import Domain
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An append-only file of ``TodoChange``s, one JSON line each, fsynced after every append.
///
/// A line is written whole or, after a crash in the middle of a write, as a tail without its
/// newline; reading ignores such a tail, since the change it held was never acknowledged.
struct TodoJournal {
    /// Why the journal could not be read or written.
    enum Failure: Error, CustomStringConvertible {
        case system(operation: String, path: String, errno: Int32)
        case corruptLine(number: Int)

        var description: String {
            switch self {
            case .system(let operation, let path, let code):
                "\(operation) \(path): \(String(cString: strerror(code)))"
            case .corruptLine(let number): "line \(number) is not a change"
            }
        }
    }

    let url: URL

    /// The changes in the file, oldest first; none when there is no file.
    func read() throws(Failure) -> [TodoChange] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch CocoaError.fileReadNoSuchFile {
            return []
        } catch {
            throw .system(operation: "read", path: url.path, errno: EIO)
        }
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // The part after the last newline is a torn write, or empty.
        lines.removeLast()
        let decoder = JSONDecoder()
        var changes: [TodoChange] = []
        for (index, line) in lines.enumerated() where !line.isEmpty {
            guard let change = try? decoder.decode(TodoChange.self, from: Data(line)) else {
                throw .corruptLine(number: index + 1)
            }
            changes.append(change)
        }
        return changes
    }

    /// Appends `change` and waits until it is on disk.
    func append(_ change: TodoChange) throws(Failure) {
        var line: Data
        do {
            line = try JSONEncoder().encode(change)
        } catch {
            throw .system(operation: "encode a change for", path: url.path, errno: EINVAL)
        }
        line.append(UInt8(ascii: "\n"))
        let existed = FileManager.default.fileExists(atPath: url.path)
        let descriptor = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .system(operation: "open", path: url.path, errno: errno) }
        defer { close(descriptor) }
        let written = line.withUnsafeBytes { buffer in write(descriptor, buffer.baseAddress, buffer.count) }
        guard written == line.count else {
            throw .system(operation: "append to", path: url.path, errno: errno)
        }
        guard fsync(descriptor) == 0 else { throw .system(operation: "fsync", path: url.path, errno: errno) }
        // A new file's name must reach the disk too.
        if !existed { try syncFolder() }
    }

    /// Removes the file, once a snapshot holds every change in it.
    func remove() throws(Failure) {
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw .system(operation: "remove", path: url.path, errno: errno)
        }
    }

    /// Moves the file aside, for a person to look at, and returns where it went.
    func setAside() -> URL {
        let aside = url.appendingPathExtension("corrupt-\(Int(Date().timeIntervalSince1970))")
        _ = rename(url.path, aside.path)
        return aside
    }

    private func syncFolder() throws(Failure) {
        let folder = url.deletingLastPathComponent().path
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system(operation: "open", path: folder, errno: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .system(operation: "fsync", path: folder, errno: errno) }
    }
}
