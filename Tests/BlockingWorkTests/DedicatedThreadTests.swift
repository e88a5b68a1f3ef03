import BlockingWork
import Foundation
import Testing

/// Blocking work from async code runs on threads of its own, so the cooperative pool (one
/// thread per core) keeps running other tasks meanwhile.
@Suite("Dedicated thread")
struct DedicatedThreadTests {
    @Test(
        "more blocked callers than the pool has threads, and another task still runs",
        .timeLimit(.minutes(10)))
    func poolStaysFree() async {
        let release = DispatchSemaphore(value: 0)
        let blocked = max(2, ProcessInfo.processInfo.activeProcessorCount) + 1
        await withTaskGroup(of: Int.self) { group in
            for index in 0..<blocked {
                group.addTask {
                    // Holds its thread until the task below, which needs a pool thread, ran.
                    await DedicatedThread.run(named: "blocked-\(index)") {
                        release.wait()
                        return index
                    }
                }
            }
            // Had the waits taken the pool's threads, this task would never start: a deadlock
            // that the time limit turns into a failure.
            group.addTask {
                await Task.yield()
                for _ in 0..<blocked { release.signal() }
                return -1
            }
            var finished: [Int] = []
            for await index in group { finished.append(index) }
            #expect(finished.sorted() == Array(-1..<blocked))
        }
    }

    struct Refusal: Error, Equatable { var reason: String }

    @Test("what the work throws reaches the caller, typed")
    func passesErrorsOn() async {
        let thrown = await #expect(throws: Refusal.self) {
            try await DedicatedThread.run(named: "throws") { () throws(Refusal) -> Int in
                throw Refusal(reason: "no")
            }
        }
        #expect(thrown == Refusal(reason: "no"))
    }

    @Test("work that answers in time is answered; work that hangs is given up on at the limit")
    func givesUp() async {
        let answered = await DedicatedThread.run(named: "quick", givingUpAfter: .seconds(30)) { 42 }
        #expect(answered == 42)
        let release = DispatchSemaphore(value: 0)
        let hung = await DedicatedThread.run(named: "hangs", givingUpAfter: .milliseconds(50)) {
            release.wait()
            return 1
        }
        #expect(hung == nil)
        // The hung thread still waits: let it end.
        release.signal()
    }
}
