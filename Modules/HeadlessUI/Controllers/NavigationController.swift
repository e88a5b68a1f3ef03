import Layout
import LayoutDSL
import TerminalCore

/// Hears a ``NavigationController`` change its top controller, as
/// `UINavigationControllerDelegate`.
@MainActor
public protocol NavigationControllerDelegate: AnyObject {
    /// `viewController` is about to become the top controller.
    func navigationController(
        _ navigationController: NavigationController, willShow viewController: ViewController)
    /// `viewController` became the top controller.
    func navigationController(
        _ navigationController: NavigationController, didShow viewController: ViewController)
}

extension NavigationControllerDelegate {
    /// Does nothing.
    public func navigationController(
        _ navigationController: NavigationController, willShow viewController: ViewController
    ) {}
    /// Does nothing.
    public func navigationController(
        _ navigationController: NavigationController, didShow viewController: ViewController
    ) {}
}

/// A stack of controllers with a bar on top that shows the top one's title and a back item, as
/// `UINavigationController`.
///
/// ```swift
/// let navigation = NavigationController(rootViewController: list)
/// navigation.pushViewController(detail, onBack: { [weak self] in self?.detailDidGoAway() })
/// navigation.goBack()        // what the back item does: pops, then calls onBack
/// ```
///
/// **Back tells the owner.** A pop the user makes with the back item ends in the `onBack`
/// closure given when the controller was pushed. Whoever pushed it (a RIB's router, say) hears
/// that the user took it off screen and can detach what belongs to it — the back-button
/// problem of UIKit apps built with RIBs, solved once here instead of in every screen. Pops
/// made in code (``popViewController()``, ``popToRootViewController()``) do not call it: the
/// code that pops already knows.
open class NavigationController: ViewController {
    /// The stack, bottom to top.
    public private(set) var viewControllers: [ViewController] = []
    /// The bar on top.
    public let navigationBar = NavigationBar()
    /// Hears the top controller change.
    public weak var delegate: (any NavigationControllerDelegate)?
    /// Whether the bar is hidden; the content then fills the whole view.
    public var isNavigationBarHidden = false {
        didSet { navigationBar.isHidden = isNavigationBarHidden }
    }

    private let contentView = View()
    private var backHandlers: [ObjectIdentifier: @MainActor () -> Void] = [:]

    /// Creates a navigation controller with `rootViewController` at the bottom of its stack.
    public init(rootViewController: ViewController) {
        super.init()
        setViewControllers([rootViewController])
    }

    /// Creates an empty navigation controller.
    public override init() {
        super.init()
    }

    /// The controller on top of the stack.
    public var topViewController: ViewController? { viewControllers.last }

    /// The controller on screen: the top one, or what it presents.
    public var visibleViewController: ViewController? {
        var visible = topViewController
        while let presented = visible?.presentedViewController { visible = presented }
        return visible
    }

    /// The top controller.
    open override var visibleChild: ViewController? { topViewController }

    /// Back: Esc or `back` does what the bar's back item does (``goBack()``). The key is
    /// declared only while there is somewhere to go back to, so the help bar shows it then.
    open override var keyCommands: [KeyCommand] {
        let destination = backItemTitle
        return [
            KeyCommand(
                "Back", keys: destination == nil ? [] : [KeyPress(.escape)], typed: "back",
                help: "Go back" + (destination.map { " to \($0)" } ?? ""), showsInHelpBar: destination != nil
            ) { [weak self] _ in
                self?.goBack() == true ? .handled : .failed("There is nothing to go back to.")
            }
        ]
    }

    /// The bar and, under it, the content area that holds the top controller's view.
    open override func loadView() {
        let root = View()
        navigationBar.navigationController = self
        root.addSubview(navigationBar)
        root.addSubview(contentView)
        contentView.accessibilityIdentifier = "NavigationController.content"
        view = root
        makeLayout {
            _ = try navigationBar.ndl.makeConstraints { make in make.top.left.right.equalToSuperview() }
            _ = try contentView.ndl.makeConstraints { make in
                make.left.right.bottom.equalToSuperview()
                // A hidden bar collapses: the content moves up to the top.
                make.top.equalTo(navigationBar.ndl.bottom).priority(999)
                make.top.greaterThanOrEqualToSuperview()
            }
        }
        if let top = topViewController { show(top.view) }
    }

    private func show(_ view: View) {
        contentView.addSubview(view)
        view.pinEdges(to: contentView, identifier: "NavigationController-content")
    }

    // MARK: Pushing and popping

    /// Pushes `viewController` on top and shows it. `onBack` runs after the user pops it with
    /// the back item (see ``goBack()``), not after pops made in code.
    ///
    /// A controller that already has a parent or a presenter, or a navigation controller, is
    /// refused and reported to ``HeadlessUIDiagnostics/misuseHandler``.
    public func pushViewController(_ viewController: ViewController, onBack: (@MainActor () -> Void)? = nil) {
        guard !(viewController is NavigationController) else {
            return HeadlessUIDiagnostics.report(.pushingNavigationController(viewController.debugName))
        }
        guard viewController.parent == nil, viewController.presentingViewController == nil else {
            return HeadlessUIDiagnostics.report(.controllerInUse(viewController.debugName))
        }
        if let onBack { backHandlers[ObjectIdentifier(viewController)] = onBack }
        replaceTop(with: viewController, pushing: [viewController], popping: [])
    }

    /// Pops the top controller and returns it; the root is never popped (`nil` then).
    @discardableResult
    public func popViewController() -> ViewController? {
        guard viewControllers.count > 1, let top = topViewController else { return nil }
        replaceTop(with: viewControllers[viewControllers.count - 2], pushing: [], popping: [top])
        return top
    }

    /// Pops every controller above the root and returns them, bottom to top.
    @discardableResult
    public func popToRootViewController() -> [ViewController] {
        guard let root = viewControllers.first else { return [] }
        return popToViewController(root)
    }

    /// Pops every controller above `viewController` and returns them, bottom to top; nothing
    /// when it is not in the stack.
    @discardableResult
    public func popToViewController(_ viewController: ViewController) -> [ViewController] {
        guard let index = viewControllers.firstIndex(where: { $0 === viewController }),
            index < viewControllers.count - 1
        else { return [] }
        let popped = Array(viewControllers[(index + 1)...])
        replaceTop(with: viewController, pushing: [], popping: popped)
        return popped
    }

    /// Replaces the whole stack; the new top is shown and the controllers that left are removed.
    public func setViewControllers(_ controllers: [ViewController]) {
        var unique: [ViewController] = []
        for controller in controllers where !unique.contains(where: { $0 === controller }) {
            guard controller.parent == nil || controller.parent === self,
                !(controller is NavigationController)
            else {
                HeadlessUIDiagnostics.report(.controllerInUse(controller.debugName))
                continue
            }
            unique.append(controller)
        }
        guard let newTop = unique.last else { return }
        let leaving = viewControllers.filter { old in !unique.contains { $0 === old } }
        let arriving = unique.filter { new in !viewControllers.contains { $0 === new } }
        replaceTop(with: newTop, pushing: arriving, popping: leaving, stack: unique)
    }

    /// What the bar's back item does: pops the top controller, then calls the `onBack` given
    /// when it was pushed, so that its owner can let it go. Returns `false` when there is
    /// nothing to go back to or the top controller hides the back item.
    @discardableResult
    public func goBack() -> Bool {
        guard backItemTitle != nil, let top = topViewController else { return false }
        let onBack = backHandlers[ObjectIdentifier(top)]
        guard popViewController() != nil else { return false }
        onBack?()
        return true
    }

    /// The back item's title, or `nil` when the bar shows none.
    var backItemTitle: String? {
        guard viewControllers.count > 1, let top = topViewController, !top.navigationItem.hidesBackButton
        else { return nil }
        let previous = viewControllers[viewControllers.count - 2]
        return previous.navigationItem.backButtonTitle ?? previous.navigationItem.title ?? previous.title
            ?? "Back"
    }

    private func replaceTop(
        with newTop: ViewController, pushing arriving: [ViewController], popping leaving: [ViewController],
        stack: [ViewController]? = nil
    ) {
        let oldTop = topViewController
        for controller in arriving {
            addChild(controller)
            controller.isMovingToParent = true
        }
        for controller in leaving {
            controller.willMove(toParent: nil)
            controller.isMovingFromParent = true
        }
        if let stack {
            viewControllers = stack
        } else {
            viewControllers.removeAll { old in leaving.contains { $0 === old } }
            viewControllers += arriving
        }
        if newTop !== oldTop { delegate?.navigationController(self, willShow: newTop) }
        let changesScreen = newTop !== oldTop
        transition(
            from: changesScreen ? oldTop : nil, to: changesScreen ? newTop : nil,
            onScreen: isAppearingOrAppeared
        ) {
            guard changesScreen, isViewLoaded else { return }
            oldTop?.viewIfLoaded?.removeFromSuperview()
            show(newTop.view)
        }
        for controller in arriving {
            controller.isMovingToParent = false
            controller.didMove(toParent: self)
        }
        for controller in leaving {
            controller.isMovingFromParent = false
            backHandlers[ObjectIdentifier(controller)] = nil
            controller.removeFromParent()
        }
        if changesScreen { delegate?.navigationController(self, didShow: newTop) }
    }
}
