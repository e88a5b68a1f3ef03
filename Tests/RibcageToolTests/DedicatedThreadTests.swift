import Foundation
import RibcageTool
import Testing

/// Blocking work from async code runs on threads of its own, so the cooperative pool (one
/// thread per core) keeps running other tasks meanwhile.
@Suite("Dedicated thread")
struct DedicatedThreadTests {
    @Test(
        "more blocked callers than the pool has threads, and another task still runs",
        .timeLimit(.minutes(1)))
    func poolStaysFree() async throws {
        let release = DispatchSemaphore(value: 0)
        let blocked = max(2, ProcessInfo.processInfo.activeProcessorCount) + 1
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<blocked {
                group.addTask {
                    // Holds its thread until the task below, which needs a pool thread, ran.
                    try await DedicatedThread.run(named: "blocked-\(index)") {
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
            for try await index in group { finished.append(index) }
            #expect(finished.sorted() == Array(-1..<blocked))
        }
    }

    @Test("what the work throws reaches the caller")
    func passesErrorsOn() async {
        await #expect(throws: FileTreeDigests.ReadError.self) {
            try await DedicatedThread.run(named: "throws") {
                try FileTreeDigests.digest(ofFile: "/nonexistent/ribcage")
            }
        }
    }
}
