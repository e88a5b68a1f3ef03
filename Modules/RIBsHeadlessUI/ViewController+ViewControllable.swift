import HeadlessUI
import RIBs

// RIBs and HeadlessUI do not know each other: RIBs asks for its `ViewControllable` and
// `WindowControllable` protocols, HeadlessUI provides view controllers and windows, and this
// module, which imports both, connects them. The three are in one package, so Swift does not
// treat these conformances as retroactive.

extension ViewController: ViewControllable {
    /// Whether the view is loaded and in a window, as RIBs-iOS checks
    /// `isViewLoaded && view.window != nil`.
    public var isPresentedInWindow: Bool { viewIfLoaded?.window != nil }
}

extension Window: WindowControllable {
    /// Makes `viewController` the root, when it is a HeadlessUI ``ViewController``; anything else
    /// is reported to ``HeadlessUIDiagnostics/misuseHandler`` and leaves the window as it was.
    public func setRootViewController(_ viewController: any ViewControllable) {
        guard let controller = viewController as? ViewController else {
            return HeadlessUIDiagnostics.report(
                .foreignViewController(String(describing: type(of: viewController))))
        }
        rootViewController = controller
    }
}

extension ViewableRouting {
    /// The router's view controller as a HeadlessUI ``ViewController``, or `nil` when the
    /// router's view controller is something else.
    public var headlessViewController: ViewController? { viewControllable as? ViewController }
}
