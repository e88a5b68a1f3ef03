/// The scope an interactor offers to the work bound to it: whether it is active, and a stream of
/// that state.
@MainActor
public protocol InteractorScope: AnyObject, Sendable {
    /// True between `activate()` and `deactivate()`.
    var isActive: Bool { get }

    /// The active state: the current value first, then each change. It finishes when the
    /// interactor is deallocated.
    var isActiveStream: SubjectStream<Bool> { get }
}

/// An interactor as its router sees it: something that can be activated and deactivated.
@MainActor
public protocol Interactable: InteractorScope {
    /// Activates the interactor. Does nothing if it is already active.
    func activate()

    /// Deactivates the interactor. Does nothing if it is already inactive.
    func deactivate()
}

/// The business logic of a RIB. Subclass it and override ``didBecomeActive()`` and
/// ``willResignActive()``.
///
/// An interactor is active while its RIB is attached. Work started in ``didBecomeActive()``
/// should be bound to the active scope, so that it stops on deactivation:
///
/// ```swift
/// override func didBecomeActive() {
///     super.didBecomeActive()
///     task {
///         for await todos in repository.changes { presenter.show(todos) }
///     }
/// }
/// ```
///
/// The order of events follows RIBs-iOS: on activation the stream sends `true` and *then*
/// `didBecomeActive()` runs; on deactivation `willResignActive()` runs while ``isActive`` is still
/// `true`, then the scope's work is cancelled, then the stream sends `false`.
@MainActor
open class Interactor: Interactable {
    private let activeSubject = StreamSubject<Bool>(replaying: false)
    private var activeScope: CancelBag?

    /// Creates an inactive interactor.
    public init() {}

    /// True between ``activate()`` and ``deactivate()``.
    public final var isActive: Bool { activeSubject.value ?? false }

    /// The active state: the current value first, then each change; it finishes on deinit.
    public final var isActiveStream: SubjectStream<Bool> { activeSubject.stream }

    /// Activates the interactor, then calls ``didBecomeActive()``. Idempotent.
    public final func activate() {
        guard !isActive else { return }
        activeScope = CancelBag()
        activeSubject.send(true)
        didBecomeActive()
    }

    /// Calls ``willResignActive()``, cancels the active scope's work, then deactivates. Idempotent.
    public final func deactivate() {
        guard isActive else { return }
        willResignActive()
        activeScope?.cancel()
        activeScope = nil
        activeSubject.send(false)
    }

    /// Called right after the interactor became active. Start the RIB's work here.
    open func didBecomeActive() {}

    /// Called while the interactor is still active, right before it deactivates.
    open func willResignActive() {}

    /// Binds `item` to the active scope: cancelled on deactivation, or at once if inactive.
    ///
    /// - Returns: True if `item` was bound; false if it was cancelled at once.
    @discardableResult
    final func bindToActiveScope(_ item: any Cancellable) -> Bool {
        guard let activeScope else {
            item.cancel()
            return false
        }
        activeScope.insert(item)
        return true
    }

    isolated deinit {
        if isActive { deactivate() }
        activeSubject.finish()
    }
}
