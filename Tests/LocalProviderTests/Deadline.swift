import Synchronization

/// A store call that did not finish in time. A load that hangs — a FIFO's `open` waiting for a
/// writer, a read loop that never settles — then fails its test instead of hanging the run.
struct TimedOut: Error, CustomStringConvertible {
    var limit: Duration
    var description: String { "did not finish within \(limit)" }
}

/// What `work` returns or throws, if it finishes within `limit`; else throws ``TimedOut``.
///
/// `work` runs in a task of its own, which is left behind when time is up: a store call stuck on
/// its queue's thread ignores cancellation, and waiting for it, as a task group would, would hang
/// the test. Pass the stores' async forms: they run on the store's own queue, so a stuck call
/// holds no thread of the cooperative pool, and the timer still fires.
func within<T: Sendable>(
    _ limit: Duration = .seconds(600), _ work: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = Race<T>()
    return try await withCheckedThrowingContinuation { continuation in
        race.start(continuation)
        Task {
            do {
                race.finish(.success(try await work()))
            } catch {
                race.finish(.failure(error))
            }
        }
        Task {
            try? await Task.sleep(for: limit)
            race.finish(.failure(TimedOut(limit: limit)))
        }
    }
}

/// Resumes the continuation once: with whichever of the work and the timer finishes first.
private final class Race<T: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<T, any Error>?>(nil)

    func start(_ waiting: CheckedContinuation<T, any Error>) {
        continuation.withLock { $0 = waiting }
    }

    func finish(_ result: Result<T, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}
