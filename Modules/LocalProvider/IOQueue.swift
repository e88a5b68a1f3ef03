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
///
/// The queue is the executor of an actor, and ``run(isolation:_:)`` is a call into it, not a
/// continuation resumed from the queue: a resumed continuation goes to the cooperative pool
/// first and only then back to the caller's actor, two thread hand-offs where the actor's
/// return to its caller is one. On a save that is fsynced in about a millisecond, each
/// hand-off is a thread woken up. That, and a wait for another process's lock that a
/// cancelled task can end, is why it is not BlockingWork's `BlockingQueue`, which resumes its
/// callers through a continuation and runs every call to its end.
final class IOQueue: Sendable {
    private let worker: Worker

    init(label: String) {
        worker = Worker(queue: DispatchQueue(label: "LocalProvider.\(label)"))
    }

    /// Runs `work` on the queue and returns what it returns, on the caller's actor.
    ///
    /// Cancelling the awaiting task ends the work only while it waits for a ``FolderLock`` that
    /// another process holds; it then throws `CancellationError`, having changed nothing. Work
    /// that can go ahead runs to its end, even for a task cancelled before it started: a
    /// cancelled interactor that saves its last state on the way out keeps it.
    func run<T: Sendable>(
        isolation: isolated (any Actor)? = #isolation, _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        let cancellation = Cancellation()
        return try await withTaskCancellationHandler {
            // Capturing the caller's isolation keeps this closure on its actor: without it, the
            // closure would first hop to the cooperative pool.
            _ = isolation
            return try await worker.run {
                try FolderLock.holdingNone {
                    try FolderLock.$cancellation.withValue(cancellation) { try work() }
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Runs `work` on the queue and returns at once: for a caller that is not async and must not
    /// wait for the disk, such as a change stream's first value.
    func start(_ work: @escaping @Sendable () -> Void) {
        worker.queue.async(execute: work)
    }

    /// Whether the task that awaits a piece of work was cancelled; set from any thread.
    final class Cancellation: Sendable {
        private let cancelled = Atomic(false)
        var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
        func cancel() { cancelled.store(true, ordering: .releasing) }
    }

    /// The actor whose jobs run on `queue`.
    private actor Worker {
        nonisolated let queue: DispatchQueue
        private nonisolated let executor: QueueExecutor

        init(queue: DispatchQueue) {
            self.queue = queue
            executor = QueueExecutor(queue: queue)
        }

        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        func run<T: Sendable>(_ work: @Sendable () throws -> T) throws -> T { try work() }
    }

    /// Runs each job on a serial dispatch queue, as `DispatchSerialQueue` does on Apple's
    /// platforms; Linux's Dispatch has no executor of its own.
    private final class QueueExecutor: SerialExecutor {
        let queue: DispatchQueue

        init(queue: DispatchQueue) {
            self.queue = queue
        }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
        }
    }
}
