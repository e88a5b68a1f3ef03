import Synchronization

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Lets values through only while `scope` is active.
    ///
    /// This is RIBs-iOS's `confineTo(_:)`. A value that arrives while the scope is inactive is
    /// held, and the latest such value is delivered when the scope becomes active again; earlier
    /// held values are dropped. The sequence ends when the base sequence ends (after delivering a
    /// held value, if the scope becomes active again) or when the scope is deallocated. Errors of
    /// the base sequence end it quietly.
    ///
    /// - Parameter scope: The interactor (or other scope) whose activity gates the values. It is
    ///   held weakly.
    @MainActor
    public func confine(to scope: some InteractorScope) -> ConfinedSequence<Self> {
        ConfinedSequence(base: self, scope: scope)
    }
}

/// The values of `Base` that arrive while an ``InteractorScope`` is active. See
/// ``_Concurrency/AsyncSequence/confine(to:)``.
public struct ConfinedSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
    /// The confined values, in order.
    public typealias Element = Base.Element

    let base: Base
    weak var scope: (any InteractorScope)?
    let activity: SubjectStream<Bool>

    @MainActor
    init(base: Base, scope: any InteractorScope) {
        self.base = base
        self.scope = scope
        self.activity = scope.isActiveStream
    }

    /// Iterates the confined values.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Element>.Iterator

        /// The next value let through, or `nil` when the sequence has ended.
        public mutating func next() async -> Element? {
            await base.next()
        }
    }

    private struct Gate: Sendable {
        var isActive = false
        var held: Element?
        var baseEnded = false
    }

    /// The gate's state, shared by the task watching the scope and the task reading the base.
    private final class SharedGate: Sendable {
        let state = Mutex(Gate())
    }

    /// Starts watching the scope and the base sequence.
    public func makeAsyncIterator() -> AsyncIterator {
        let (output, continuation) = AsyncStream<Element>.makeStream()
        let gate = SharedGate()
        let activityIterator = activity.makeAsyncIterator()

        let watcher = Task {
            var activity = activityIterator
            while let active = await activity.next() {
                let (release, end): (Element?, Bool) = gate.state.withLock { gate in
                    gate.isActive = active
                    guard active else { return (nil, false) }
                    defer { gate.held = nil }
                    return (gate.held, gate.baseEnded)
                }
                if let release { continuation.yield(release) }
                if end { break }
            }
            continuation.finish()
        }

        let scope = self.scope
        let base = self.base
        let pump = Task {
            do {
                for try await value in base {
                    // Ask the scope itself, on its actor, so a deactivation that happened before
                    // this value arrived is always seen, whatever the activity stream's timing.
                    let active = await MainActor.run { scope?.isActive ?? false }
                    let deliver: Bool = gate.state.withLock { gate in
                        gate.isActive = active
                        if !active { gate.held = value }
                        return active
                    }
                    if deliver { continuation.yield(value) }
                }
            } catch {}
            let finishNow: Bool = gate.state.withLock { gate in
                gate.baseEnded = true
                return gate.held == nil
            }
            if finishNow { continuation.finish() }
        }

        continuation.onTermination = { _ in
            watcher.cancel()
            pump.cancel()
        }
        return AsyncIterator(base: output.makeAsyncIterator())
    }
}
