import BlockingWork
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file being uploaded, read a range at a time on a queue of its own, never on the
/// cooperative pool.
struct BlobFile: Sendable {
    /// The reads of every file an upload opens, one after another.
    static let queue = BlockingQueue(label: "ribcage-reapi-blob-files")

    let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// Opens `path` for reading, runs `body` with it, and closes it.
    static func withFile<Result: Sendable>(
        _ path: String, _ body: (BlobFile) async throws(RemoteExecutionError) -> Result
    ) async throws(RemoteExecutionError) -> Result {
        // errno is the opening thread's: read it there.
        let (opened, error) = await queue.run { () -> (Int32, Int32) in
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            return (descriptor, descriptor < 0 ? errno : 0)
        }
        guard opened >= 0 else { throw .unreadableUpload("\(path): \(String(cString: strerror(error)))") }
        let file = BlobFile(path: path, descriptor: opened)
        defer { _ = close(opened) }
        return try await body(file)
    }

    /// The `count` bytes at `offset`; fewer only when the file is shorter than that, which for
    /// a blob means it changed since it was hashed.
    func read(at offset: Int64, count: Int) async throws(RemoteExecutionError) -> Data {
        let descriptor = descriptor
        let path = path
        let result: Result<Data, RemoteExecutionError> = await Self.queue.run {
            var data = Data(count: count)
            var filled = 0
            while filled < count {
                let got = data.withUnsafeMutableBytes { buffer -> Int in
                    guard let base = buffer.baseAddress else { return 0 }
                    return pread(descriptor, base + filled, count - filled, off_t(offset) + off_t(filled))
                }
                if got < 0, errno == EINTR { continue }
                guard got >= 0 else {
                    return .failure(.unreadableUpload("\(path): \(String(cString: strerror(errno)))"))
                }
                if got == 0 { break }
                filled += got
            }
            return .success(data.prefix(filled))
        }
        return try result.get()
    }

    /// The blob's bytes: all of `count`, or a failure saying the file changed since it was hashed.
    func readAll(_ count: Int64) async throws(RemoteExecutionError) -> Data {
        let data = try await read(at: 0, count: Int(count))
        guard data.count == count else { throw Self.changed(path, expected: count) }
        return data
    }

    static func changed(_ path: String, expected: Int64) -> RemoteExecutionError {
        .unreadableUpload("\(path) is no longer the \(expected) bytes it was when it was hashed")
    }
}
