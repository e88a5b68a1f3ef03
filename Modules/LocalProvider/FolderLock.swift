import Foundation
import Synchronization

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
///
/// Waiting blocks the thread that waits. The stores' async methods wait on their ``IOQueue``'s
/// thread, never on one of the cooperative pool's, and a cancelled task ends the wait: the
/// queue binds ``cancellation`` while it runs the work.
package struct FolderLock: Sendable {
    let folder: URL
    let timeout: Duration

    /// The cancellation of the async call whose work runs on this thread, if any. A wait that
    /// sees it cancelled throws `CancellationError` and changes nothing.
    @TaskLocal static var cancellation: IOQueue.Cancellation?

    /// The folders whose lock this thread holds, inside ``withLock(_:)``.
    @TaskLocal private static var held: Set<String> = []

    /// Runs `work` as holding no folder's lock, whatever the task it runs in says: for a store's
    /// queued work, which runs inside the awaiting task, whose task-local values a task made
    /// inside ``withLock(_:)`` would have copied.
    static func holdingNone<T>(_ work: () throws -> T) rethrows -> T {
        try $held.withValue([]) { try work() }
    }

    /// Threads waiting in each folder (by path) for a lock another process holds.
    private static let waiters = Mutex<[String: Int]>([:])

    /// How many threads of this process wait right now for the lock on `folder`, which another
    /// process holds: what a test watches to act while an operation is inside that wait.
    package static func waitingThreads(in folder: URL) -> Int {
        waiters.withLock { $0[folder.path, default: 0] }
    }

    /// Runs `body` holding the lock; inside a body that holds it already, just runs `body`.
    func withLock<T>(_ body: () throws -> T) throws -> T {
        if Self.held.contains(folder.path) { return try body() }
        let descriptor = try openFolder()
        defer { close(descriptor) }  // releases the lock; nothing was written through it
        try wait(for: descriptor)
        return try Self.$held.withValue(Self.held.union([folder.path])) { try body() }
    }

    /// Runs `body` holding the lock if no other process holds it; returns `nil` at once if one
    /// does. For housekeeping that can wait for another time, so that opening a store never
    /// waits for the lock.
    func withLockIfFree<T>(_ body: () throws -> T) throws -> T? {
        let descriptor = try openFolder()
        defer { close(descriptor) }  // releases the lock; nothing was written through it
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            switch errno {
            case EINTR: continue
            case EWOULDBLOCK: return nil
            default: throw FileIO.failure("flock", folder.path)
            }
        }
        return try body()
    }

    private func openFolder() throws -> Int32 {
        try FileIO.check("open", folder.path) { open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    }

    /// Takes the lock on `descriptor`. `flock` has no timed wait, and a blocked `flock` ends
    /// early only on a signal, for which a library may not install a handler; so this polls,
    /// which also lets it see a cancellation within a pause.
    private func wait(for descriptor: Int32) throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        let cancellation = Self.cancellation
        // Microseconds, doubled up to 2 ms while another process holds it: `flock` hands the lock
        // to no one in particular, and a waiter that slept longer lost it to the others every
        // time under load (one of eight writers waited out its 5 s).
        var pause: UInt32 = 100
        var counted = false
        defer {
            if counted {
                Self.waiters.withLock { waiters in
                    let left = waiters[folder.path, default: 1] - 1
                    waiters[folder.path] = left == 0 ? nil : left
                }
            }
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            switch errno {
            case EINTR: continue
            case EWOULDBLOCK:
                if !counted {
                    counted = true
                    Self.waiters.withLock { $0[folder.path, default: 0] += 1 }
                }
                if cancellation?.isCancelled == true { throw CancellationError() }
                guard clock.now < deadline else {
                    throw StorageError.lockTimeout(folder: folder.path, waited: timeout)
                }
                usleep(pause)
                pause = min(pause * 2, 2_000)
            default:
                throw FileIO.failure("flock", folder.path)
            }
        }
    }
}
