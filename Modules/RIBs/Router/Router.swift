/// The lifecycle events of a router.
public enum RouterLifecycle: Sendable, Equatable {
    /// The router has loaded; ``Router/didLoad()`` has run.
    case didLoad
}

/// The scope a router offers: its lifecycle.
@MainActor
public protocol RouterScope: AnyObject {
    /// Sends ``RouterLifecycle/didLoad`` once, to subscribers present at the time; it does not
    /// replay. It finishes when the router is deallocated.
    var lifecycle: SubjectStream<RouterLifecycle> { get }
}

/// A router as its parent sees it: the node of the RIB tree.
@MainActor
public protocol Routing: RouterScope {
    /// The router's interactor.
    var interactable: any Interactable { get }

    /// The attached child routers, in attach order.
    var children: [any Routing] { get }

    /// Loads the router. Its parent calls this when attaching it; it runs once.
    func load()

    /// Attaches `child`: activates its interactor, then loads it.
    func attachChild(_ child: any Routing)

    /// Detaches `child`: deactivates its interactor, and with it its subtree.
    func detachChild(_ child: any Routing)
}

/// The base class of all routers: it owns the interactor and manages the child routers.
///
/// A router's interactor drives its subtree: when it activates, every router below activates,
/// parent first; when it deactivates, so does everything below. Detached children are expected
/// to be deallocated; when a router is deallocated, the ``LeakDetector`` checks its interactor.
@MainActor
open class Router<InteractorType>: Routing {
    /// The interactor, as its concrete type.
    public let interactor: InteractorType

    /// The interactor, as ``Interactable``.
    public let interactable: any Interactable

    /// The attached children, in attach order.
    public final var children: [any Routing] { childList.elements }

    private var childList = ChildList()

    private let lifecycleSubject = StreamSubject<RouterLifecycle>()
    private var didLoadFlag = false
    private var activitySubscription: (any Cancellable)?

    /// Creates a router for `interactor`.
    ///
    /// - Precondition: `interactor` conforms to ``Interactable``. Passing anything else is a
    ///   programmer error and stops the program, as in RIBs-iOS.
    public init(interactor: InteractorType) {
        self.interactor = interactor
        guard let interactable = interactor as? any Interactable else {
            fatalError(
                "\(typeName(of: interactor)) must conform to Interactable to be a router's interactor.")
        }
        self.interactable = interactable
    }

    /// Sends ``RouterLifecycle/didLoad`` once; it does not replay.
    public final var lifecycle: SubjectStream<RouterLifecycle> { lifecycleSubject.stream }

    /// True once ``load()`` has run.
    public final var isLoaded: Bool { didLoadFlag }

    /// Loads the router once: binds the subtree's activity to the interactor, sends
    /// ``RouterLifecycle/didLoad``, then calls ``didLoad()``. Later calls do nothing.
    public final func load() {
        guard !didLoadFlag else { return }
        didLoadFlag = true
        internalDidLoad()
        didLoad()
    }

    /// Called once, when the router loads. Attach the children that live as long as this RIB here.
    open func didLoad() {}

    /// Hook for subclasses in this module that need to act on load before ``didLoad()``.
    func internalDidLoad() {
        bindSubtreeActiveState()
        lifecycleSubject.send(.didLoad)
    }

    /// Attaches `child`, activates its interactor and loads it.
    ///
    /// Attaching a router that is already a child is a ``ProgrammerError``; the tree is left as is.
    public final func attachChild(_ child: any Routing) {
        guard childList.append(child) else {
            RIBsDiagnostics.report(
                .childAlreadyAttached(parent: typeName(of: self), child: typeName(of: child)))
            return
        }
        // Activate before loading, as RIBs-iOS does, so the child's didLoad sees an active interactor.
        child.interactable.activate()
        child.load()
    }

    /// Deactivates `child`'s interactor and removes it from ``children``.
    ///
    /// Its own children stay attached to it, so attaching it again re-activates the whole subtree.
    /// Detaching a router that is not a child is a ``ProgrammerError``; nothing changes.
    public final func detachChild(_ child: any Routing) {
        guard childList.contains(child) else {
            RIBsDiagnostics.report(.detachingNonChild(parent: typeName(of: self), child: typeName(of: child)))
            return
        }
        child.interactable.deactivate()
        childList.remove(child)
    }

    private func bindSubtreeActiveState() {
        // A synchronous sink, so the subtree follows the interactor within the same call, as the
        // RxSwift original does; both sides live on the main actor.
        activitySubscription = interactable.isActiveStream.sink { [weak self] isActive in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.setSubtreeActive(isActive)
            }
        }
    }

    private func setSubtreeActive(_ isActive: Bool) {
        // Pre-order: a parent changes state before its children. Only interactors in the other
        // state are told, as in RIBs-iOS: an `Interactable` that is not an `Interactor` (a mock
        // counting calls, say) must not hear a `deactivate()` while it is already inactive.
        var stack: [any Routing] = children.reversed()
        while let router = stack.popLast() {
            let interactor = router.interactable
            if interactor.isActive != isActive {
                if isActive { interactor.activate() } else { interactor.deactivate() }
            }
            stack.append(contentsOf: router.children.reversed())
        }
    }

    isolated deinit {
        interactable.deactivate()
        for child in children { detachChild(child) }
        lifecycleSubject.finish()
        activitySubscription?.cancel()
        LeakDetector.instance.expectDeallocate(object: interactable)
    }
}
