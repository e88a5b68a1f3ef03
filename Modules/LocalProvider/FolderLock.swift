import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A lock that processes sharing a folder take before they change files in it: `flock` on the
/// folder itself. Every store takes it around each write, removal and set-aside, so two
/// processes never read-modify-write the same file at once, and a file is removed or set aside
/// only while it is still the one that was read.
///
/// The lock belongs to an open descriptor, so the kernel drops it when its process dies: a
/// killed writer never leaves the folder locked. It is never taken twice by one operation
/// (`flock` would wait for itself), and waiting is bounded: after `timeout` the operation fails
/// with ``StorageError/lockTimeout(folder:waited:)`` and changes nothing.
struct FolderLock: Sendable {
    let folder: URL
    let timeout: Duration

    /// Runs `body` holding the lock.
    func withLock<T>(_ body: () throws -> T) throws -> T {
        let descriptor = try FileIO.check("open", folder.path) {
            open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        defer { close(descriptor) }  // releases the lock; nothing was written through it
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        // Microseconds, doubled up to 2 ms while another process holds it: `flock` hands the lock
        // to no one in particular, and a waiter that slept longer lost it to the others every
        // time under load (one of eight writers waited out its 5 s).
        var pause: UInt32 = 100
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            switch errno {
            case EINTR: continue
            case EWOULDBLOCK:
                guard clock.now < deadline else {
                    throw StorageError.lockTimeout(folder: folder.path, waited: timeout)
                }
                usleep(pause)
                pause = min(pause * 2, 2_000)
            default:
                throw FileIO.failure("flock", folder.path)
            }
        }
        return try body()
    }
}
