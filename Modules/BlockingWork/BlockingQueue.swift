import Dispatch

/// Blocking work for async callers, done one call at a time, in the order the calls came, on a
/// serial dispatch queue of its own (whose thread is not the cooperative pool's).
///
/// For work that must not overlap with itself (moving files once, reading one folder's files in
/// turn); a call that needs no order goes to ``DedicatedThread``. A call waiting its turn holds
/// no thread.
public final class BlockingQueue: Sendable {
    private let queue: DispatchQueue

    /// A queue whose thread is named `label` in a debugger and in `/proc`.
    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Runs `work` once the calls before it are done, and returns what it returned or throws
    /// what it threw.
    public func run<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Result(catching: work)) }
        }
        return try result.get()
    }
}
