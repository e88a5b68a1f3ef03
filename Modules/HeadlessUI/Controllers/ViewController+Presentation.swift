import Layout

/// How a presented controller is shown, as `UIModalPresentationStyle`.
public enum ModalPresentationStyle: Sendable, Hashable {
    /// Over the whole window; what it covers is hidden and disappears.
    case fullScreen
    /// In a box in the middle of the window, as big as ``ViewController/preferredContentSize``
    /// allows; what it covers stays visible around it and does not disappear, as on an iPad.
    case formSheet
}

/// Modal presentation, as UIKit's `present` and `dismiss`.
///
/// With ``ModalPresentationStyle/fullScreen`` the presented controller's view covers the
/// window; the presenting side's view is hidden under it and gets its disappearance callbacks.
/// With ``ModalPresentationStyle/formSheet`` it sits in the middle of the window over the rest,
/// which stays on screen. Either way the presented controller is first in the responder chain
/// and the only place focus goes.
extension ViewController {
    /// Presents `viewController` over the whole window, then calls `completion`.
    ///
    /// Misuse is reported to ``HeadlessUIDiagnostics/misuseHandler`` and changes nothing:
    /// presenting from a controller that is not in a window, that already presents one, or
    /// presenting a controller that has a parent or a presenter.
    public func present(_ viewController: ViewController, completion: (@MainActor () -> Void)? = nil) {
        if let presented = presentedViewController {
            return HeadlessUIDiagnostics.report(
                .alreadyPresenting(presenter: debugName, presented: presented.debugName))
        }
        guard viewController.parent == nil, viewController.presentingViewController == nil,
            viewController !== self
        else { return HeadlessUIDiagnostics.report(.controllerInUse(viewController.debugName)) }
        guard let window else {
            return HeadlessUIDiagnostics.report(.presentingOutsideWindow(presenter: debugName))
        }
        let covers = viewController.modalPresentationStyle == .fullScreen
        let covered = covers ? window.topmostController : nil
        presentedViewController = viewController
        viewController.presentingViewController = self
        viewController.isBeingPresented = true
        transition(from: covered, to: viewController, onScreen: window.isVisible) {
            window.addPresentedView(viewController)
            covered?.viewIfLoaded?.isHidden = true
        }
        viewController.isBeingPresented = false
        completion?()
    }

    /// Dismisses the controller this one presents, or, when it presents none, dismisses this
    /// one from its presenter, as UIKit does. Controllers presented above it go too.
    public func dismiss(completion: (@MainActor () -> Void)? = nil) {
        let presenter = presentedViewController == nil ? presentingViewController : self
        guard let presenter, let presented = presenter.presentedViewController else {
            completion?()
            return
        }
        // Controllers presented above go first, without appearing on the way down.
        presented.presentedViewController?.dismissWithoutUncovering()
        let window = presented.window
        let uncovers = presented.modalPresentationStyle == .fullScreen
        let uncovered = uncovers ? presenter.window.flatMap { _ in presenter.presentationContext } : nil
        presented.isBeingDismissed = true
        transition(from: presented, to: uncovered, onScreen: window?.isVisible ?? false) {
            uncovered?.viewIfLoaded?.isHidden = false
            presented.viewIfLoaded?.removeFromSuperview()
        }
        presented.isBeingDismissed = false
        presenter.presentedViewController = nil
        presented.presentingViewController = nil
        completion?()
    }

    private func dismissWithoutUncovering() {
        presentedViewController?.dismissWithoutUncovering()
        guard let presenter = presentingViewController else { return }
        isBeingDismissed = true
        if appearanceState != .disappeared {
            beginAppearanceTransition(false)
            endAppearanceTransition()
        }
        viewIfLoaded?.removeFromSuperview()
        isBeingDismissed = false
        presenter.presentedViewController = nil
        presentingViewController = nil
    }

    /// The controller whose view fills the window under this one: the window's root, or the
    /// presented controller this one is inside.
    var presentationContext: ViewController? {
        var top = self
        while let parent = top.parent { top = parent }
        return top
    }
}
