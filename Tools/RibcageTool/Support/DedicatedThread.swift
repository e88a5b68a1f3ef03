import Foundation

/// Blocking work for async callers, run on a thread of its own.
///
/// The cooperative pool has one thread per core (two here); a synchronous walk that reads every
/// file and waits for `DispatchQueue.concurrentPerform`'s other workers would hold one of them
/// for its whole length. Here the caller suspends instead, and resumes when the thread is done.
package enum DedicatedThread {
    /// Runs `work` on a new thread named `name` and returns what it returned or threw.
    package static func run<Value: Sendable>(
        named name: String, _ work: @escaping @Sendable () throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.name = name
            thread.start()
        }
    }
}
