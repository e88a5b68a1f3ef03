import Synchronization

/// Something that happens once, which any number of tasks can await, before or after it
/// happened.
package final class OneTimeSignal: Sendable {
    private struct State {
        var signalled = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    init() {}

    /// Marks the event as happened and resumes every waiter; later calls do nothing.
    func signal() {
        let waiters = state.withLock { state in
            defer { state.waiters = [] }
            state.signalled = true
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the event has happened.
    package func wait() async {
        await withCheckedContinuation { continuation in
            let signalled = state.withLock { state in
                if !state.signalled { state.waiters.append(continuation) }
                return state.signalled
            }
            if signalled { continuation.resume() }
        }
    }
}
