import Dispatch
import Synchronization

/// Where a store's async methods do their file work: waiting for another process's
/// ``FolderLock``, reading, writing and `fsync`. Every one of those blocks its thread, and the
/// cooperative pool has a thread per core, so this work runs on a serial dispatch queue of the
/// store's own, whose threads are not the pool's. The awaiting task is suspended meanwhile and
/// holds no thread.
///
/// Serial, because a store does one operation at a time anyway; an operation waiting its turn
/// here holds no thread at all, where it would block on the store's in-process lock.
final class IOQueue: Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: "LocalProvider.\(label)")
    }

    /// Runs `work` on the queue and returns what it returns.
    ///
    /// Cancelling the awaiting task ends the work only while it waits for a ``FolderLock`` that
    /// another process holds; it then throws `CancellationError`, having changed nothing. Work
    /// that can go ahead runs to its end, even for a task cancelled before it started: a
    /// cancelled interactor that saves its last state on the way out keeps it.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let cancellation = Cancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    continuation.resume(
                        with: Result { try FolderLock.$cancellation.withValue(cancellation) { try work() } })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Runs `work` on the queue and returns at once: for a caller that is not async and must not
    /// wait for the disk, such as a change stream's first value.
    func start(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Whether the task that awaits a piece of work was cancelled; set from any thread.
    final class Cancellation: Sendable {
        private let cancelled = Atomic(false)
        var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
        func cancel() { cancelled.store(true, ordering: .releasing) }
    }
}
