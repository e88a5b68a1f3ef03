/// A router that owns a view.
@MainActor
public protocol ViewableRouting: Routing {
    /// The RIB's view controller.
    var viewControllable: any ViewControllable { get }
}

/// A router whose RIB has a view controller.
///
/// When its interactor deactivates, the view is expected to leave the screen within
/// ``LeakDefaultExpectationTime/viewDisappear``; when the router is deallocated, so is the view
/// controller. The ``LeakDetector`` checks both.
@MainActor
open class ViewableRouter<InteractorType, ViewControllerType>: Router<InteractorType>, ViewableRouting {
    /// The view controller, as its concrete type.
    public let viewController: ViewControllerType

    /// The view controller, as ``ViewControllable``.
    public let viewControllable: any ViewControllable

    private var disappearanceCheck: (any LeakDetectionHandle)?
    private var disappearanceSubscription: (any Cancellable)?

    /// Creates a router for `interactor` and `viewController`.
    ///
    /// - Precondition: `viewController` conforms to ``ViewControllable``; anything else is a
    ///   programmer error and stops the program, as in RIBs-iOS.
    public init(interactor: InteractorType, viewController: ViewControllerType) {
        self.viewController = viewController
        guard let viewControllable = viewController as? any ViewControllable else {
            fatalError("\(typeName(of: viewController)) must conform to ViewControllable.")
        }
        self.viewControllable = viewControllable
        super.init(interactor: interactor)
    }

    override func internalDidLoad() {
        disappearanceSubscription = interactable.isActiveStream.sink { [weak self] isActive in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.disappearanceCheck?.cancel()
                self.disappearanceCheck =
                    isActive
                    ? nil
                    : LeakDetector.instance.expectViewControllerDisappear(
                        viewController: self.viewControllable)
            }
        }
        super.internalDidLoad()
    }

    isolated deinit {
        disappearanceSubscription?.cancel()
        disappearanceCheck?.cancel()
        LeakDetector.instance.expectDeallocate(
            object: viewControllable, inTime: LeakDefaultExpectationTime.viewDisappear)
    }
}
