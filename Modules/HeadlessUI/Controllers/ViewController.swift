import Layout
import LayoutDSL

/// Manages a view and its lifecycle, as `UIViewController`.
///
/// ```swift
/// final class GreetingViewController: ViewController {
///     private let label = Label("Hello")
///
///     override func viewDidLoad() {
///         super.viewDidLoad()
///         view.addSubview(label)
///         // Throws only for misuse (no superview, say), which cannot happen here.
///         _ = try? label.ndl.makeConstraints { make in make.center.equalToSuperview() }
///     }
/// }
/// ```
///
/// The view is made on first use (``loadView()``, then ``viewDidLoad()``). The appearance
/// callbacks come in UIKit's order as the controller's view goes on and off screen: when a
/// window shows it, a navigation controller pushes or pops, a tab is selected, or a controller
/// is presented or dismissed. Without animations there is no interactive transition: each
/// `viewWill…` is followed by its `viewDid…` in the same call.
///
/// Unlike UIKit, the appearance methods take no `animated` flag: a terminal never animates.
@MainActor
open class ViewController {
    /// Where a controller is in its appearance cycle.
    package enum AppearanceState: Sendable, Hashable {
        /// Off screen.
        case disappeared
        /// Between `viewWillAppear` and `viewDidAppear`.
        case appearing
        /// On screen.
        case appeared
        /// Between `viewWillDisappear` and `viewDidDisappear`.
        case disappearing
    }

    /// The title a navigation bar or a tab shows when the items have none.
    public var title: String?
    /// What a navigation bar shows while this controller is on top.
    public let navigationItem = NavigationItem()
    /// What a tab bar shows for this controller.
    public let tabBarItem = TabBarItem()

    /// The parent in a containment hierarchy (a navigation or tab bar controller, say).
    public internal(set) weak var parent: ViewController?
    /// The child controllers, in the order they were added.
    public internal(set) var children: [ViewController] = []
    /// The controller this one presents, if any.
    public internal(set) var presentedViewController: ViewController?
    /// The controller that presents this one, if it is presented.
    public internal(set) weak var presentingViewController: ViewController?
    /// Where the controller is in its appearance cycle.
    package private(set) var appearanceState = AppearanceState.disappeared
    /// True during the appearance callbacks of a pop or a removal from the parent: what a
    /// controller checks in `viewWillDisappear` to know it is going away, as in UIKit.
    public internal(set) var isMovingFromParent = false
    /// True during the appearance callbacks of a push or an addition to a parent.
    public internal(set) var isMovingToParent = false
    /// True during the appearance callbacks of a dismissal of this controller.
    public internal(set) var isBeingDismissed = false
    /// True during the appearance callbacks of a presentation of this controller.
    public internal(set) var isBeingPresented = false
    /// How ``present(_:completion:)`` shows this controller: over the whole window (the
    /// default), or as a sheet in the middle of it over what stays visible.
    public var modalPresentationStyle = ModalPresentationStyle.fullScreen
    /// The size a sheet would like, in cells; a dimension of 0 takes the window's, less a
    /// margin. Only for ``ModalPresentationStyle/formSheet``.
    public var preferredContentSize = Size.zero

    private var loadedView: View?

    /// Creates a controller; its view is made on first use.
    public init() {}

    // MARK: The view

    /// The controller's view, made by ``loadView()`` on first use.
    public var view: View {
        get {
            loadViewIfNeeded()
            return loadedView ?? View()
        }
        set { loadedView = newValue }
    }

    /// The view if it was made, without making it.
    public var viewIfLoaded: View? { loadedView }

    /// Whether the view was made.
    public var isViewLoaded: Bool { loadedView != nil }

    /// Makes the view now, if it has not been made: ``loadView()``, then ``viewDidLoad()``.
    public func loadViewIfNeeded() {
        guard loadedView == nil else { return }
        loadView()
        if loadedView == nil { loadedView = View() }
        viewDidLoad()
    }

    /// Makes the view and assigns it to ``view``. The default makes an empty `View` with
    /// one-cell margins; override it to make your own (do not call `super` then).
    open func loadView() {
        let view = View()
        view.layoutMargins = EdgeInsets(top: 0, left: 1, bottom: 0, right: 1)
        loadedView = view
    }

    /// Called once, after the view was made.
    open func viewDidLoad() {}
    /// Called before the view goes on screen.
    open func viewWillAppear() {}
    /// Called after the view went on screen.
    open func viewDidAppear() {}
    /// Called before the view goes off screen.
    open func viewWillDisappear() {}
    /// Called after the view went off screen.
    open func viewDidDisappear() {}

    // MARK: Commands

    /// The child controller whose view is on screen in this one: the top of a navigation stack,
    /// the selected tab. Commands go to it first (see `commandResponders`). `nil` by default.
    open var visibleChild: ViewController? { nil }

    /// The commands this controller offers while it is on screen: keys, typed words, or both,
    /// with their help. The window runs them (``Window/send(_:)``, ``Window/perform(_:)``) and
    /// the help bar and help text list them. Read each time a key arrives or the help is drawn,
    /// so it may depend on the controller's state. None by default.
    open var keyCommands: [KeyCommand] { [] }

    /// The view that gets the keyboard focus when nothing on screen has it (a table, a text
    /// field), as UIKit's preferred focus environments: the window gives it the focus before it
    /// draws the frame that shows this controller (``Window/updateFocusIfNeeded()``). `nil` by
    /// default.
    open var preferredFocusedView: View? { nil }

    /// Handles a line typed at the prompt that none of the ``keyCommands`` took, as a
    /// responder handles a key command in UIKit. Return ``CommandResult/notHandled`` for
    /// commands that are not this controller's, so that its parent gets them. The default
    /// handles nothing.
    open func handle(_ command: TerminalCommand) -> CommandResult { .notHandled }

    // MARK: Containment callbacks

    /// Called before the controller is added to `parent`, or removed from its parent (`nil`).
    /// Overrides call `super`.
    open func willMove(toParent parent: ViewController?) {}

    /// Called after the controller was added to `parent` (you call it, after adding the
    /// child's view), or removed from its parent (`nil`, called by
    /// ``removeFromParent()``). Overrides call `super`: when the parent is on screen and the
    /// child's view is in the parent's, this is where the child appears.
    open func didMove(toParent parent: ViewController?) {
        guard let parent, parent.isAppearingOrAppeared, !isAppearingOrAppeared, isViewInHierarchy(of: parent)
        else { return }
        isMovingToParent = true
        beginAppearanceTransition(true)
        endAppearanceTransition()
        isMovingToParent = false
    }

    // MARK: Containers above

    /// The nearest navigation controller above this controller.
    public var navigationController: NavigationController? {
        var candidate = parent
        while let current = candidate {
            if let navigation = current as? NavigationController { return navigation }
            candidate = current.parent
        }
        return nil
    }

    /// The nearest tab bar controller above this controller.
    public var tabBarController: TabBarController? {
        var candidate = parent
        while let current = candidate {
            if let tabs = current as? TabBarController { return tabs }
            candidate = current.parent
        }
        return nil
    }

    /// The window the view is in, if it is in one.
    public var window: Window? { loadedView?.window }

    /// The type name, and the title when there is one.
    package var debugName: String {
        let type = String(describing: Swift.type(of: self))
        return title.map { "\(type)(\($0))" } ?? type
    }

    // MARK: Appearance

    /// Starts an appearance change, calling `viewWillAppear` or `viewWillDisappear`, and
    /// forwards it to the children on screen, parents first. Containers call it on their
    /// children; a controller that is already where the change leads is left alone.
    public func beginAppearanceTransition(_ isAppearing: Bool) {
        if isAppearing {
            guard appearanceState == .disappeared || appearanceState == .disappearing else { return }
            loadViewIfNeeded()
            appearanceState = .appearing
            viewWillAppear()
            for child in children where child.isViewInHierarchy(of: self) {
                child.beginAppearanceTransition(true)
            }
        } else {
            guard appearanceState == .appeared || appearanceState == .appearing else { return }
            appearanceState = .disappearing
            viewWillDisappear()
            for child in children
            where child.appearanceState == .appeared || child.appearanceState == .appearing {
                child.beginAppearanceTransition(false)
            }
        }
    }

    /// Finishes the change ``beginAppearanceTransition(_:)`` started, calling `viewDidAppear`
    /// or `viewDidDisappear`, and forwards it to the children in the same change.
    public func endAppearanceTransition() {
        switch appearanceState {
        case .appearing:
            appearanceState = .appeared
            viewDidAppear()
            window?.controllerDidAppear(self)
        case .disappearing:
            appearanceState = .disappeared
            viewDidDisappear()
        case .appeared, .disappeared:
            return
        }
        for child in children
        where child.appearanceState == .appearing || child.appearanceState == .disappearing {
            child.endAppearanceTransition()
        }
    }

    /// Whether this controller's view is inside `ancestor`'s view.
    func isViewInHierarchy(of ancestor: ViewController) -> Bool {
        guard let mine = loadedView, let theirs = ancestor.loadedView else { return false }
        return mine.isDescendant(of: theirs)
    }

    /// Whether the controller is on screen or going there.
    var isAppearingOrAppeared: Bool { appearanceState == .appearing || appearanceState == .appeared }
}

/// Runs the appearance callbacks of one controller replacing another on screen, in UIKit's
/// order for a transition without animation: the old one's `viewWillDisappear`, the new one's
/// `viewWillAppear`, then `change` (which swaps the views), then the old one's
/// `viewDidDisappear` and the new one's `viewDidAppear`.
@MainActor
func transition(
    from old: ViewController?, to new: ViewController?, onScreen: Bool, change: () -> Void
) {
    new?.loadViewIfNeeded()
    guard onScreen else {
        change()
        return
    }
    old?.beginAppearanceTransition(false)
    new?.beginAppearanceTransition(true)
    change()
    old?.endAppearanceTransition()
    new?.endAppearanceTransition()
}
