import Synchronization

/// Something that can be stopped: a task, a stream subscription, a workflow, a leak check.
///
/// RIBs-iOS uses RxSwift's `Disposable` for this. `Task` conforms, so a task can be bound to an
/// interactor's active scope with ``Cancellable/cancelOnDeactivate(interactor:)``.
public protocol Cancellable: Sendable {
    /// Stops the work. Calling it again does nothing.
    func cancel()
}

extension Task: Cancellable {}

/// A ``Cancellable`` that runs a closure once, on the first ``cancel()``.
public final class AnyCancellable: Cancellable {
    private let action: Mutex<(@Sendable () -> Void)?>

    /// Wraps `cancel`, which runs at most once.
    public init(_ cancel: @escaping @Sendable () -> Void) {
        action = Mutex(cancel)
    }

    /// Runs the closure if it has not run yet.
    public func cancel() {
        let pending = action.withLock { action in
            defer { action = nil }
            return action
        }
        pending?()
    }

    /// True once ``cancel()`` has run.
    public var isCancelled: Bool { action.withLock { $0 == nil } }
}

/// A set of ``Cancellable``s cancelled together, like RxSwift's `CompositeDisposable`.
///
/// Once the bag itself is cancelled, anything inserted later is cancelled at once.
public final class CancelBag: Cancellable {
    private let state = Mutex<(items: [any Cancellable], isCancelled: Bool)>(([], false))

    /// An empty bag.
    public init() {}

    /// Adds `item`, or cancels it at once if the bag is already cancelled.
    public func insert(_ item: any Cancellable) {
        let accepted = state.withLock { state in
            guard !state.isCancelled else { return false }
            state.items.append(item)
            return true
        }
        if !accepted { item.cancel() }
    }

    /// Cancels every item, in the order they were inserted.
    public func cancel() {
        let items = state.withLock { state in
            state.isCancelled = true
            defer { state.items.removeAll() }
            return state.items
        }
        for item in items { item.cancel() }
    }

    /// The number of items waiting to be cancelled.
    public var count: Int { state.withLock { $0.items.count } }

    /// True once ``cancel()`` has run.
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }
}
