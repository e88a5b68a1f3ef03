import Layout
import LayoutDSL
import TerminalCore

/// Hears a ``TabBarController``'s selection change, as `UITabBarControllerDelegate`.
@MainActor
public protocol TabBarControllerDelegate: AnyObject {
    /// The user selected `viewController`'s tab (see ``TabBarController/selectTab(at:)``).
    func tabBarController(_ tabBarController: TabBarController, didSelect viewController: ViewController)
}

/// Tabs of controllers with a bar at the bottom to switch between them, as
/// `UITabBarController`.
///
/// ```swift
/// let tabs = TabBarController()
/// tabs.viewControllers = [todos, profile]
/// tabs.selectedIndex = 1        // todos disappears, profile appears
/// ```
///
/// Only the selected tab's view is in the hierarchy; the others keep their views loaded but
/// off screen, as in UIKit.
open class TabBarController: ViewController {
    /// The bar at the bottom.
    public let tabBar = TabBar()
    /// Hears the user select a tab.
    public weak var delegate: (any TabBarControllerDelegate)?

    private let contentView = View()
    private var tabs: [ViewController] = []
    private var selected = 0

    /// Creates a tab bar controller without tabs.
    public override init() {
        super.init()
    }

    /// The tabs' controllers, in order. Setting them removes the old ones and shows the first
    /// (or the one at the same index, if there is still one).
    public var viewControllers: [ViewController] {
        get { tabs }
        set { setTabs(newValue) }
    }

    /// The selected tab's index. Setting it to a tab that does not exist is reported to
    /// ``HeadlessUIDiagnostics/misuseHandler`` and changes nothing.
    public var selectedIndex: Int {
        get { selected }
        set { select(newValue) }
    }

    /// The selected tab's controller.
    public var selectedViewController: ViewController? {
        get { tabs.indices.contains(selected) ? tabs[selected] : nil }
        set {
            guard let newValue, let index = tabs.firstIndex(where: { $0 === newValue }) else { return }
            select(index)
        }
    }

    /// What a tap on a tab does: selects it and tells the delegate. Returns `false` for a tab
    /// that does not exist.
    @discardableResult
    public func selectTab(at index: Int) -> Bool {
        guard tabs.indices.contains(index) else {
            HeadlessUIDiagnostics.report(.tabIndexOutOfRange(index: index, count: tabs.count))
            return false
        }
        select(index)
        delegate?.tabBarController(self, didSelect: tabs[index])
        return true
    }

    /// The selected tab.
    open override var visibleChild: ViewController? { selectedViewController }

    /// Tabs: Alt-1 to Alt-9, or `tab NAME` or `tab N` typed, taps a tab: by its number from 1
    /// or its title (any case).
    open override var keyCommands: [KeyCommand] {
        let keys = viewControllers.indices.prefix(9).map { KeyPress(Character("\($0 + 1)"), modifiers: .alt) }
        return [
            KeyCommand(
                "Tab", keys: keys, typed: "tab", usage: "tab NAME", help: "Show a tab, by its number or name",
                showsInHelpBar: false
            ) { [weak self] invocation in
                self?.selectTab(invocation) ?? .handled
            }
        ]
    }

    private func selectTab(_ invocation: KeyCommand.Invocation) -> CommandResult {
        let wanted: String
        switch invocation {
        case .key(let press):
            guard case .character(let digit) = press.key else { return .notHandled }
            wanted = String(digit)
        case .typed(let command):
            wanted = command.text().lowercased()
        }
        let titles = viewControllers.map { ($0.tabBarItem.title ?? $0.title ?? "").lowercased() }
        let index = titles.firstIndex(of: wanted) ?? Int(wanted).map { $0 - 1 }
        guard let index, viewControllers.indices.contains(index) else {
            return .failed("No tab \"\(wanted)\"; the tabs are \(titles.joined(separator: ", ")).")
        }
        selectTab(at: index)
        return .handled
    }

    /// The content area above the bar, which holds the selected tab's view.
    open override func loadView() {
        let root = View()
        tabBar.tabBarController = self
        root.addSubview(contentView)
        root.addSubview(tabBar)
        contentView.accessibilityIdentifier = "TabBarController.content"
        view = root
        makeLayout {
            _ = try contentView.ndl.makeConstraints { make in
                make.top.left.right.equalToSuperview()
                make.bottom.equalTo(tabBar.ndl.top)
            }
            _ = try tabBar.ndl.makeConstraints { make in make.left.right.bottom.equalToSuperview() }
        }
        if let current = selectedViewController { show(current.view) }
    }

    private func show(_ view: View) {
        contentView.addSubview(view)
        view.pinEdges(to: contentView, identifier: "TabBarController-content")
    }

    private func select(_ index: Int) {
        guard tabs.indices.contains(index) else {
            return HeadlessUIDiagnostics.report(.tabIndexOutOfRange(index: index, count: tabs.count))
        }
        guard index != selected else { return }
        let old = selectedViewController
        selected = index
        let new = tabs[index]
        transition(from: old, to: new, onScreen: isAppearingOrAppeared) {
            guard isViewLoaded else { return }
            old?.viewIfLoaded?.removeFromSuperview()
            show(new.view)
        }
    }

    private func setTabs(_ controllers: [ViewController]) {
        var unique: [ViewController] = []
        for controller in controllers where !unique.contains(where: { $0 === controller }) {
            guard controller.parent == nil || controller.parent === self,
                controller.presentingViewController == nil
            else {
                HeadlessUIDiagnostics.report(.controllerInUse(controller.debugName))
                continue
            }
            unique.append(controller)
        }
        let old = selectedViewController
        let leaving = tabs.filter { tab in !unique.contains { $0 === tab } }
        let arriving = unique.filter { tab in !tabs.contains { $0 === tab } }
        for controller in arriving { addChild(controller) }
        for controller in leaving { controller.willMove(toParent: nil) }
        tabs = unique
        selected = unique.indices.contains(selected) ? selected : 0
        let new = selectedViewController
        let changesScreen = old !== new
        transition(
            from: changesScreen ? old : nil, to: changesScreen ? new : nil, onScreen: isAppearingOrAppeared
        ) {
            guard changesScreen, isViewLoaded else { return }
            old?.viewIfLoaded?.removeFromSuperview()
            if let new { show(new.view) }
        }
        for controller in arriving { controller.didMove(toParent: self) }
        for controller in leaving { controller.removeFromParent() }
    }
}
