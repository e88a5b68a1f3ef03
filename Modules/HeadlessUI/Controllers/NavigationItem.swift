/// A button in a navigation bar, as `UIBarButtonItem` with a primary action.
@MainActor
public final class BarButtonItem {
    /// The title shown in the bar.
    public var title: String
    /// Whether ``tap()`` runs the action.
    public var isEnabled = true
    /// What a tap does.
    public var primaryAction: (@MainActor () -> Void)?

    /// Creates an item with `title` that runs `action` when tapped.
    public init(title: String, action: (@MainActor () -> Void)? = nil) {
        self.title = title
        primaryAction = action
    }

    /// Runs the action, as a tap would, and returns whether it ran.
    @discardableResult
    public func tap() -> Bool {
        guard isEnabled else { return false }
        primaryAction?()
        return true
    }
}

/// What a navigation bar shows for the controller on top, as `UINavigationItem`.
@MainActor
public final class NavigationItem {
    /// The title in the middle of the bar; the controller's `title` when `nil`.
    public var title: String?
    /// The back item's title on the controller pushed above this one; this controller's title
    /// when `nil`, and "Back" when it has none.
    public var backButtonTitle: String?
    /// Whether the back item is hidden while this controller is on top.
    public var hidesBackButton = false
    /// A button at the trailing end of the bar.
    public var rightBarButtonItem: BarButtonItem?

    nonisolated init() {}
}

/// What a tab bar shows for a controller, as `UITabBarItem`.
@MainActor
public final class TabBarItem {
    /// The tab's title; the controller's `title` when `nil`.
    public var title: String?
    /// A short mark after the title, such as a count.
    public var badgeValue: String?

    nonisolated init() {}
}
