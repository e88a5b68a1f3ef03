import BlockingWork
import Foundation
import Synchronization
import Testing

/// A ``BlockingQueue`` runs its calls one at a time, in the order they came, off the pool.
@Suite("Blocking queue", .timeLimit(.minutes(10)))
struct BlockingQueueTests {
    @Test("calls never overlap, and the pool stays free while one blocks")
    func oneAtATime() async throws {
        let queue = BlockingQueue(label: "ribcage.tests.blocking-queue")
        let inside = Overlap()
        let release = DispatchSemaphore(value: 0)
        try await withThrowingTaskGroup(of: Int.self) { group in
            // The first call to get the queue blocks until the test's task below has run: were
            // the calls on the pool's threads, with the rest blocked behind it, that task could
            // not start, and the time limit would end the test.
            for _ in 0..<6 {
                group.addTask {
                    await queue.run {
                        let overlapping = inside.count.add(1, ordering: .sequentiallyConsistent).newValue
                        defer { inside.count.subtract(1, ordering: .sequentiallyConsistent) }
                        release.wait()
                        return overlapping
                    }
                }
            }
            group.addTask {
                await Task.yield()
                for _ in 0..<6 { release.signal() }
                return 1
            }
            for try await overlapping in group { #expect(overlapping == 1) }
        }
    }

    /// How many calls are inside the queue's work at once.
    final class Overlap: Sendable {
        let count = Atomic(0)
    }

    struct Refusal: Error, Equatable {}

    @Test("what the work throws reaches the caller, typed, and the queue goes on")
    func passesErrorsOn() async throws {
        let queue = BlockingQueue(label: "ribcage.tests.blocking-queue-errors")
        await #expect(throws: Refusal.self) {
            try await queue.run { () throws(Refusal) -> Int in throw Refusal() }
        }
        #expect(await queue.run { 7 } == 7)
    }
}
