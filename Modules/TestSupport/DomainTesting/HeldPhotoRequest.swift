import Domain
import Synchronization

/// A photo request that an ``InMemoryPetPhotoRepository`` holds until the test lets it go: a
/// slow server, without a clock. Each step is awaited, never slept for.
///
/// ```swift
/// let held = photos.holdNextRequest()
/// interactor.didTapRefresh()
/// await held.arrival()
/// // … what happens while the request hangs …
/// held.release()
/// ```
public final class HeldPhotoRequest: Sendable {
    private struct State {
        var hasArrived = false
        var isCancelled = false
        var isReleased = false
        var request: CheckedContinuation<Void, Never>?
        var arrivalWaiters: [CheckedContinuation<Void, Never>] = []
        var endWaiters: [CheckedContinuation<Void, Never>] = []
        var hasEnded = false
    }

    private let state = Mutex(State())
    private let answersWhenCancelled: Bool

    init(answersWhenCancelled: Bool) {
        self.answersWhenCancelled = answersWhenCancelled
    }

    /// Whether the task that made the request was cancelled while it was held.
    public var wasCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Returns once the request has come and is being held.
    public func arrival() async {
        await wait(until: \.hasArrived, in: \.arrivalWaiters)
    }

    /// Returns once the request is no longer held: released, or given up by its cancelled task.
    public func end() async {
        await wait(until: \.hasEnded, in: \.endWaiters)
    }

    private func wait(
        until happened: KeyPath<State, Bool>,
        in waiters: WritableKeyPath<State, [CheckedContinuation<Void, Never>]>
    ) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state[keyPath: happened] { return true }
                state[keyPath: waiters].append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Lets the request go on to its answer.
    public func release() {
        let request = state.withLock { state in
            state.isReleased = true
            defer { state.request = nil }
            return state.request
        }
        request?.resume()
    }

    /// Holds the calling request until ``release()``, or until its task is cancelled (unless the
    /// hold was made to answer anyway, as a transport that ignores cancellation would).
    func hold() async throws(PetPhotoError) {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let (arrived, goOn) = state.withLock { state in
                    state.hasArrived = true
                    defer { state.arrivalWaiters = [] }
                    let goOn = state.isReleased || (state.isCancelled && !answersWhenCancelled)
                    if !goOn { state.request = continuation }
                    return (state.arrivalWaiters, goOn)
                }
                if goOn { continuation.resume() }
                for waiter in arrived { waiter.resume() }
            }
        } onCancel: {
            let request: CheckedContinuation<Void, Never>? = state.withLock { state in
                state.isCancelled = true
                guard !answersWhenCancelled else { return nil }
                defer { state.request = nil }
                return state.request
            }
            request?.resume()
        }
        let (cancelled, ended) = state.withLock { state in
            state.hasEnded = true
            defer { state.endWaiters = [] }
            return (state.isCancelled, state.endWaiters)
        }
        for waiter in ended { waiter.resume() }
        if cancelled && !answersWhenCancelled { throw PetPhotoError.cancelled }
    }
}
