import Domain
import Synchronization

/// Runs read-modify-write updates one after another, in the order they were asked for: an
/// update's load waits until the save of the one before has returned. The awaiting tasks hold no
/// thread meanwhile.
final class SerialUpdates: Sendable {
    /// The last update asked for; the next one starts after it.
    private let last = Mutex<Task<Void, Never>?>(nil)

    /// Runs `update` after every update asked for before it; returns what it returns.
    func run<T: Sendable>(_ update: @escaping @Sendable () async throws(RepositoryError) -> T)
        async throws(RepositoryError) -> T
    {
        let turn = last.withLock { last in
            let previous = last
            let turn = Task { () async -> Result<T, RepositoryError> in
                await previous?.value
                do throws(RepositoryError) {
                    return .success(try await update())
                } catch {
                    return .failure(error)
                }
            }
            last = Task { _ = await turn.value }
            return turn
        }
        return try await turn.value.get()
    }
}
