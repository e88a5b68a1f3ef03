/// A view controller as RIBs sees it.
///
/// RIBs-iOS asks for a `UIViewController`. Ribcage's RIBs core knows no UI framework, so it asks
/// only what the leak detector needs; a UI layer (HeadlessUI in this workspace) conforms its
/// view controllers through a small adapter.
@MainActor
public protocol ViewControllable: AnyObject {
    /// True while the view is loaded and in a window, i.e. on screen. RIBs-iOS checks
    /// `isViewLoaded && view.window != nil`.
    var isPresentedInWindow: Bool { get }
}

/// A window that a ``LaunchRouting`` RIB can launch into, as `UIWindow` is in RIBs-iOS.
@MainActor
public protocol WindowControllable: AnyObject {
    /// Shows `viewController` as the window's root.
    func setRootViewController(_ viewController: any ViewControllable)

    /// Makes the window the key window and shows it.
    func makeKeyAndVisible()
}
