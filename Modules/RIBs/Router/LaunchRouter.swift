/// The root router of an app: it launches the RIB tree into a window.
@MainActor
public protocol LaunchRouting: ViewableRouting {
    /// Shows the root view in `window`, then activates and loads the root RIB.
    func launch(from window: any WindowControllable)
}

/// The root router of an app.
@MainActor
open class LaunchRouter<InteractorType, ViewControllerType>: ViewableRouter<
    InteractorType, ViewControllerType
>,
LaunchRouting
{
    /// Sets the window's root view controller, makes it key and visible, activates the interactor,
    /// then loads the router — the order of RIBs-iOS.
    public final func launch(from window: any WindowControllable) {
        window.setRootViewController(viewControllable)
        window.makeKeyAndVisible()
        interactable.activate()
        load()
    }
}
