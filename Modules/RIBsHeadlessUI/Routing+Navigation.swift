import HeadlessUI
import RIBs

/// Pushing a child RIB's view and detaching the child when the user goes back.
///
/// UIKit apps built with RIBs have to notice the back button in every screen (RIBs issues
/// #131, #141, #146, #163, #204) because `UINavigationController` pops on its own and the RIB
/// stays attached. Here the router that pushes a child hands the navigation controller what to do
/// on back, once:
///
/// ```swift
/// func routeToAddTodo() {
///     let addTodo = addTodoBuilder.build(withListener: interactor)
///     attachChild(addTodo, pushingOn: navigation) { [weak self] in
///         self?.addTodo = nil      // the child is already detached
///     }
///     self.addTodo = addTodo
/// }
/// ```
extension Routing {
    /// Attaches `child`, then pushes its view controller on `navigationController`. When the user
    /// goes back from it, the child is detached, then `onBack` runs.
    ///
    /// A child whose view controller is not a HeadlessUI ``ViewController`` is attached but not
    /// pushed, and reported to ``HeadlessUIDiagnostics/misuseHandler``.
    public func attachChild(
        _ child: any ViewableRouting, pushingOn navigationController: NavigationController,
        onBack: (@MainActor () -> Void)? = nil
    ) {
        attachChild(child)
        guard let controller = child.headlessViewController else {
            return HeadlessUIDiagnostics.report(
                .foreignViewController(String(describing: type(of: child.viewControllable))))
        }
        navigationController.pushViewController(controller) { [weak self, weak child] in
            if let self, let child, self.children.contains(where: { $0 === child }) {
                self.detachChild(child)
            }
            onBack?()
        }
    }

    /// Pops `child`'s view controller (and any above it) from `navigationController` if it is
    /// still there, then detaches `child`. For leaving in code: after a save or a cancel.
    public func detachChild(
        _ child: any ViewableRouting, poppingFrom navigationController: NavigationController
    ) {
        if let controller = child.headlessViewController,
            let index = navigationController.viewControllers.firstIndex(where: { $0 === controller }),
            index > 0
        {
            navigationController.popToViewController(navigationController.viewControllers[index - 1])
        }
        if children.contains(where: { $0 === child }) { detachChild(child) }
    }
}
