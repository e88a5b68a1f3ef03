import Synchronization

/// The source side of a RIBs stream: it sends values to every subscriber of its ``stream``.
///
/// RIBs-iOS builds on RxSwift's `BehaviorSubject` and `PublishSubject`; this is both, for Swift
/// concurrency. A *replaying* subject (``init(replaying:)``) hands its current value to each new
/// subscriber first, as `BehaviorSubject` does; a *publishing* one (``init()``) sends only what
/// comes after the subscription, as `PublishSubject` does.
///
/// Subscribers are either async iterators (`for await value in subject.stream`) or synchronous
/// sinks (``SubjectStream/sink(receiveValue:receiveCompletion:)``). A subscription is registered
/// when the iterator is *made*, not when it is first awaited, so no value sent after
/// `makeAsyncIterator()` can be missed.
///
/// Send from one isolation domain at a time (RIB types send from the main actor); the subject is
/// thread-safe, but values sent concurrently from two threads have no defined order.
public final class StreamSubject<Element: Sendable>: Sendable {
    typealias Sink = @Sendable (Element) -> Void
    typealias Completion = @Sendable () -> Void

    private enum Subscriber {
        case iterator(AsyncStream<Element>.Continuation)
        case sink(Sink, Completion?)
    }

    private struct State {
        var current: Element?
        let replays: Bool
        var isFinished = false
        /// In subscription order, which is the order values are delivered in, as in RxSwift.
        var subscribers: [(id: UInt64, subscriber: Subscriber)] = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    /// A subject that replays its current value, starting with `initial`.
    public init(replaying initial: Element) {
        state = Mutex(State(current: initial, replays: true))
    }

    /// A subject that sends only values that arrive after a subscription.
    public init() {
        state = Mutex(State(current: nil, replays: false))
    }

    /// The last value sent (or the initial one), for a replaying subject; `nil` for a publishing
    /// one.
    public var value: Element? {
        state.withLock { $0.replays ? $0.current : nil }
    }

    /// True once ``finish()`` has been called.
    public var isFinished: Bool { state.withLock { $0.isFinished } }

    /// The read side, to hand out to subscribers.
    public var stream: SubjectStream<Element> { SubjectStream(subject: self) }

    /// The number of live subscriptions; useful in tests and leak hunts.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Sends `value` to every subscriber. Does nothing after ``finish()``.
    public func send(_ value: Element) {
        let sinks: [Sink] = state.withLock { state in
            guard !state.isFinished else { return [] }
            if state.replays { state.current = value }
            var sinks: [Sink] = []
            for (_, subscriber) in state.subscribers {
                switch subscriber {
                case .iterator(let continuation): continuation.yield(value)
                case .sink(let sink, _): sinks.append(sink)
                }
            }
            return sinks
        }
        // Sinks run outside the lock, so a sink may send again or subscribe without deadlocking.
        for sink in sinks { sink(value) }
    }

    /// Ends the stream: iterators finish, sinks get their completion, later subscribers get
    /// nothing.
    public func finish() {
        let subscribers: [Subscriber] = state.withLock { state in
            guard !state.isFinished else { return [] }
            state.isFinished = true
            defer { state.subscribers.removeAll() }
            return state.subscribers.map(\.subscriber)
        }
        for subscriber in subscribers {
            switch subscriber {
            case .iterator(let continuation): continuation.finish()
            case .sink(_, let completion): completion?()
            }
        }
    }

    func makeIteratorStream() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream()
        let id: UInt64? = state.withLock { state in
            guard !state.isFinished else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.subscribers.append((id, .iterator(continuation)))
            if state.replays, let current = state.current { continuation.yield(current) }
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.removeSubscriber(id) }
        return stream
    }

    func addSink(_ sink: @escaping Sink, completion: Completion?) -> any Cancellable {
        let registration: (id: UInt64, replay: Element?)? = state.withLock { state in
            guard !state.isFinished else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.subscribers.append((id, .sink(sink, completion)))
            return (id, state.replays ? state.current : nil)
        }
        guard let registration else {
            completion?()
            return AnyCancellable {}
        }
        if let replay = registration.replay { sink(replay) }
        return AnyCancellable { [weak self] in self?.removeSubscriber(registration.id) }
    }

    private func removeSubscriber(_ id: UInt64) {
        state.withLock { state in state.subscribers.removeAll { $0.id == id } }
    }
}
