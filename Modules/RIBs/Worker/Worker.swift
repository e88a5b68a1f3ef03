/// A unit of work bound to an interactor's active scope: it runs while the interactor is active
/// and the worker is started.
@MainActor
public protocol Working: AnyObject {
    /// Starts the worker within `interactorScope`: ``Worker/didStart(_:)`` runs each time the
    /// scope becomes active, ``Worker/didStop()`` each time it resigns. Does nothing if started.
    func start(_ interactorScope: any InteractorScope)

    /// Stops the worker. Does nothing if it is not started.
    func stop()

    /// True between `start` and `stop`, whether or not the scope is active.
    var isStarted: Bool { get }

    /// ``isStarted``: the current value first, then each change.
    var isStartedStream: SubjectStream<Bool> { get }
}

/// The base class of workers. Override ``didStart(_:)`` and ``didStop()``.
///
/// ```swift
/// final class SyncWorker: Worker {
///     override func didStart(_ interactorScope: any InteractorScope) {
///         Task { await sync() }.cancelOnStop(self)
///     }
/// }
/// ```
@MainActor
open class Worker: Working {
    private let startedSubject = StreamSubject<Bool>(replaying: false)
    private var scopeSubscription: (any Cancellable)?
    private var runningScope: CancelBag?

    /// Creates a stopped worker.
    public init() {}

    /// True between ``start(_:)`` and ``stop()``.
    public final var isStarted: Bool { startedSubject.value ?? false }

    /// ``isStarted``: the current value first, then each change; it finishes on deinit.
    public final var isStartedStream: SubjectStream<Bool> { startedSubject.stream }

    /// Starts the worker within `interactorScope`. See ``Working/start(_:)``.
    public final func start(_ interactorScope: any InteractorScope) {
        guard !isStarted else { return }
        startedSubject.send(true)
        scopeSubscription?.cancel()
        // The scope is held weakly: a worker must never keep its interactor alive.
        scopeSubscription = interactorScope.isActiveStream.sink(
            receiveValue: { [weak self, weak interactorScope] isActive in
                MainActor.assumeIsolated {
                    guard let self else { return }
                    if isActive, let interactorScope {
                        self.startRunningIfNeeded(in: interactorScope)
                    } else if !isActive {
                        // No scope needed here: during the interactor's deinit it is already nil.
                        self.stopRunningIfNeeded()
                    }
                }
            },
            receiveCompletion: { [weak self] in
                MainActor.assumeIsolated { self?.stopRunningIfNeeded() }
            })
    }

    /// Stops the worker: ``didStop()`` runs if it was running, and it no longer follows its scope.
    public final func stop() {
        guard isStarted else { return }
        startedSubject.send(false)
        scopeSubscription?.cancel()
        scopeSubscription = nil
        stopRunningIfNeeded()
    }

    /// Called each time the worker starts running: it is started and its scope became active.
    open func didStart(_ interactorScope: any InteractorScope) {}

    /// Called each time the worker stops running: its scope resigned, or ``stop()`` was called.
    open func didStop() {}

    /// Binds `item` to this run: cancelled when the worker stops running, or at once if it isn't.
    ///
    /// - Returns: True if bound; false if cancelled at once.
    @discardableResult
    final func bindToRunningScope(_ item: any Cancellable) -> Bool {
        guard let runningScope else {
            item.cancel()
            return false
        }
        runningScope.insert(item)
        return true
    }

    private func startRunningIfNeeded(in interactorScope: any InteractorScope) {
        guard isStarted, runningScope == nil else { return }
        runningScope = CancelBag()
        didStart(interactorScope)
    }

    private func stopRunningIfNeeded() {
        guard let runningScope else { return }
        runningScope.cancel()
        self.runningScope = nil
        didStop()
    }

    isolated deinit {
        stop()
        startedSubject.finish()
    }
}

extension Cancellable {
    /// Cancels this when `worker` stops running, or at once if it is not running now.
    ///
    /// This is RIBs-iOS's `disposeOnStop(_:)`.
    @MainActor
    @discardableResult
    public func cancelOnStop(_ worker: Worker) -> Self {
        worker.bindToRunningScope(self)
        return self
    }
}
