import Dispatch
import Foundation
import Synchronization

/// Cancels tasks at chosen moments, from a thread of its own, for the tests that race a cancel
/// against a request's start.
///
/// The moments are tens of microseconds apart, finer than any timer, so the last stretch before
/// each is a spin. Spun on one of the cooperative pool's two threads, it held up the very tasks it
/// raced and every other suite in the process (in one `swift test`, LocalProvider's and the
/// conformance suites' timing checks failed). This thread sleeps until 100 µs before the next
/// moment and spins only the rest, and it serves every test, so tests running at once spin one
/// core between them.
final class Canceller: Sendable {
    static let shared = Canceller()

    /// When one cancel was made.
    final class Record: Sendable {
        private let instant = Mutex<ContinuousClock.Instant?>(nil)

        /// `nil` until the cancel is made; set before the task is cancelled, so a task that ended
        /// cancelled always finds it.
        var cancelledAt: ContinuousClock.Instant? { instant.withLock { $0 } }

        fileprivate func mark(_ now: ContinuousClock.Instant) { instant.withLock { $0 = now } }
    }

    private struct Job: Sendable {
        let deadline: ContinuousClock.Instant
        let cancel: @Sendable () -> Void
        let record: Record
    }

    private static let spinBefore = Duration.microseconds(100)

    private let posted = Mutex<[Job]>([])
    /// Signalled on every post, so the thread wakes for a job due before the one it sleeps for.
    private let wake = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [self] in run() }
        thread.name = "Canceller"
        thread.start()
    }

    /// Cancels `task` at `deadline`, or at once if that has passed.
    @discardableResult
    func cancel<Success: Sendable, Failure: Error>(
        _ task: Task<Success, Failure>, at deadline: ContinuousClock.Instant
    ) -> Record {
        let record = Record()
        posted.withLock { $0.append(Job(deadline: deadline, cancel: { task.cancel() }, record: record)) }
        wake.signal()
        return record
    }

    private func run() {
        let clock = ContinuousClock()
        var pending: [Job] = []
        while true {
            let jobs = posted.withLock { posted in
                defer { posted.removeAll() }
                return posted
            }
            if !jobs.isEmpty {
                pending += jobs
                pending.sort { $0.deadline < $1.deadline }
            }
            guard let next = pending.first else {
                wake.wait()
                continue
            }
            let sleep = next.deadline - clock.now - Self.spinBefore
            if sleep > .zero {
                let (seconds, attoseconds) = sleep.components
                let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
                _ = wake.wait(timeout: .now() + .nanoseconds(nanoseconds))
                continue
            }
            while clock.now < next.deadline {}
            next.record.mark(clock.now)
            next.cancel()
            pending.removeFirst()
        }
    }
}
