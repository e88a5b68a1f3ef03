import Foundation
import Synchronization

/// Blocking work for async callers, each call on a thread of its own.
///
/// The cooperative pool has one thread per core (two on a small machine). A call that blocks
/// (`getaddrinfo`, a file read, a walk of a folder that waits on `concurrentPerform`'s other
/// workers) would hold one of them for as long as it takes, and with both held nothing else in
/// the process runs. Here the caller suspends instead, holding no thread, and resumes when the
/// work is done. Work that must keep an order, or share a thread between calls, goes on a
/// ``BlockingQueue`` instead.
public enum DedicatedThread {
    /// Runs `work` on a new thread named `name` and returns what it returned or throws what it
    /// threw.
    public static func run<Value: Sendable, Failure: Error>(
        named name: String, _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: Result(catching: work)) }
            thread.name = name
            thread.start()
        }
        return try result.get()
    }

    /// Runs `work` on a new thread named `name`, and returns what it returned, or `nil` once
    /// `limit` has passed without an answer.
    ///
    /// Work that blocks in a call that cannot be interrupted (a resolver that hangs) cannot be
    /// cancelled: given up on, it is left to finish on its own thread, and its answer is dropped.
    public static func run<Value: Sendable>(
        named name: String, givingUpAfter limit: Duration, _ work: @escaping @Sendable () -> Value
    ) async -> Value? {
        let answer = FirstAnswer<Value?>()
        return await withCheckedContinuation { continuation in
            answer.waiting(continuation)
            let thread = Thread { answer.give(work()) }
            thread.name = name
            thread.start()
            Task.detached {
                // Nothing cancels this task, so the sleep always runs its whole length.
                try? await Task.sleep(for: limit)
                answer.give(nil)
            }
        }
    }
}

/// The first of two answers given from any thread, handed to the one waiting for it.
private final class FirstAnswer<Value: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<Value, Never>?>(nil)

    func waiting(_ waiting: CheckedContinuation<Value, Never>) {
        continuation.withLock { $0 = waiting }
    }

    func give(_ value: Value) {
        let waiting = continuation.withLock { stored in
            defer { stored = nil }
            return stored
        }
        waiting?.resume(returning: value)
    }
}
