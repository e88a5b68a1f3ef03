import Domain
import Synchronization

/// Runs read-modify-write updates one after another, in the order they were asked for: an
/// update's load waits until the save of the one before has returned. The awaiting tasks hold no
/// thread meanwhile.
///
/// Each update runs in its caller's task, on its caller's actor: only an update that must wait
/// its turn suspends, and the one before hands it the turn when it ends. (A task per update, each
/// awaiting the one before, cost two task starts and their thread hand-offs on every filter and
/// tab the app kept.)
final class SerialUpdates: Sendable {
    private struct Turns {
        var isTaken = false
        /// The updates waiting for their turn, first asked first.
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let turns = Mutex(Turns())

    /// Runs `update` after every update asked for before it; returns what it returns.
    nonisolated(nonsending) func run<T: Sendable>(
        _ update: nonisolated(nonsending) () async throws(RepositoryError) -> T
    ) async throws(RepositoryError) -> T {
        await takeTurn()
        defer { passTurn() }
        return try await update()
    }

    /// Returns once no update asked for earlier is still running.
    nonisolated(nonsending) private func takeTurn() async {
        let isFree = turns.withLock { turns in
            guard turns.isTaken else {
                turns.isTaken = true
                return true
            }
            return false
        }
        if isFree { return }
        await withCheckedContinuation { continuation in
            let isFreeNow = turns.withLock { turns in
                guard turns.isTaken else {
                    turns.isTaken = true
                    return true
                }
                turns.waiting.append(continuation)
                return false
            }
            if isFreeNow { continuation.resume() }
        }
    }

    /// Gives the turn to the update that has waited longest, if any.
    private func passTurn() {
        let next = turns.withLock { turns in
            guard !turns.waiting.isEmpty else {
                turns.isTaken = false
                return CheckedContinuation<Void, Never>?.none
            }
            return turns.waiting.removeFirst()
        }
        next?.resume()
    }
}
