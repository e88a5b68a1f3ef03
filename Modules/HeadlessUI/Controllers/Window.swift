import Layout
import LayoutDSL
import TerminalCore

/// The root of what is on screen: a view the size of the terminal that shows a root view
/// controller, as `UIWindow`.
///
/// ```swift
/// let window = Window(size: Size(width: 80, height: 24))
/// window.rootViewController = TodoViewController()
/// window.makeKeyAndVisible()      // the root's viewWillAppear and viewDidAppear
/// print(window.render().text())
/// ```
///
/// A window starts hidden, as UIKit's does, and draws nothing until ``makeKeyAndVisible()``.
/// Resizing it (``resize(to:)``, or setting `frame`) re-solves the layout through the root's edit
/// variables, not from scratch.
open class Window: View {
    /// The controller whose view fills the window. Replacing it while the window is visible runs
    /// both controllers' appearance callbacks.
    public var rootViewController: ViewController? {
        get { root }
        set { setRoot(newValue) }
    }
    /// Whether ``makeKeyAndVisible()`` was called: the window that receives the app's input.
    public private(set) var isKeyWindow = false
    /// Commands of the whole app (quit, help), after every controller's in the responder chain:
    /// run by their keys and typed names, and listed by the help bar and help text like the
    /// controllers' ``ViewController/keyCommands``.
    public var keyCommands: [KeyCommand] = []
    /// What the terminal shows; views read it while drawing (``DrawingContext/capabilities``).
    /// `TerminalApplication` sets it from the terminal's environment.
    public var capabilities = TerminalCapabilities()
    /// What the status line shows, which a ``StatusBar`` draws: the newest post of a controller
    /// on screen (``post(_:from:)``); `nil` when that post cleared the line or there is none.
    public var status: StatusMessage? { statusPosts.shown(in: self) }
    /// Every controller's latest post to the status line.
    var statusPosts = StatusPosts()
    /// Draws a frame when something changed outside an input event; `TerminalApplication`
    /// sets it. See `View.setNeedsDisplay()`.
    package var onNeedsDisplay: (@MainActor () -> Void)?

    private var root: ViewController?
    let focusStorage = FocusStorage()

    /// Creates a hidden window of `size` cells.
    public init(size: Size) {
        super.init(frame: Rect(origin: .zero, size: size))
        isHidden = true
        accessibilityIdentifier = "Window"
        layoutMargins = .zero
    }

    /// Whether the window is shown.
    public var isVisible: Bool { !isHidden }

    /// Makes the window key and visible; the root controller appears.
    public func makeKeyAndVisible() {
        isKeyWindow = true
        guard isHidden else { return }
        isHidden = false
        transition(from: nil, to: topmostController, onScreen: true) {}
    }

    /// Hides the window; what is on screen disappears.
    public func hide() {
        guard !isHidden else { return }
        transition(from: topmostController, to: nil, onScreen: true) {}
        isHidden = true
        isKeyWindow = false
    }

    /// The window's size in cells.
    public var size: Size { frame.size }

    /// Resizes the window, as a terminal resize does. The next layout re-solves.
    public func resize(to size: Size) {
        frame = Rect(origin: frame.origin, size: size)
    }

    /// Lays the window out and draws it, after moving the focus into what came on screen
    /// (`updateFocusIfNeeded()`), so that the frame shows the cursor where the next key goes.
    public func render() -> Canvas {
        updateFocusIfNeeded()
        return Renderer.render(self)
    }

    /// The controller on top: the last one presented, or the root.
    public var topmostController: ViewController? {
        var top = root
        while let presented = top?.presentedViewController { top = presented }
        return top
    }

    private func setRoot(_ newRoot: ViewController?) {
        guard newRoot !== root else { return }
        let old = root
        if let newRoot, newRoot.parent != nil || newRoot.presentingViewController != nil {
            return HeadlessUIDiagnostics.report(.controllerInUse(newRoot.debugName))
        }
        old?.presentedViewController?.dismiss()
        root = newRoot
        transition(from: old, to: newRoot, onScreen: isVisible) {
            old?.viewIfLoaded?.removeFromSuperview()
            if let view = newRoot?.view {
                insertSubview(view, at: 0)
                view.pinEdges(to: self, identifier: "Window-root")
            }
        }
    }

    /// Adds a presented controller's view above everything: filling the window, or as a sheet
    /// centred in it.
    func addPresentedView(_ controller: ViewController) {
        let view = controller.view
        addSubview(view)
        guard controller.modalPresentationStyle == .formSheet else {
            view.pinEdges(to: self, identifier: "Window-presentation")
            return
        }
        let preferred = controller.preferredContentSize
        // A sheet keeps a margin inside the window, and takes its preferred size where that fits.
        controller.makeLayout {
            _ = try view.ndl.makeConstraints { make in
                make.center.equalToSuperview()
                make.width.lessThanOrEqualToSuperview().offset(-4)
                make.height.lessThanOrEqualToSuperview().offset(-2)
                if preferred.width > 0 {
                    make.width.equalTo(preferred.width).priority(750)
                } else {
                    make.width.equalToSuperview().offset(-4).priority(750)
                }
                if preferred.height > 0 {
                    make.height.equalTo(preferred.height).priority(750)
                } else {
                    make.height.equalToSuperview().offset(-2).priority(750)
                }
            }
        }
    }
}

extension View {
    /// The window this view is in, if any: its root view, when that is a ``Window``.
    public var window: Window? { rootView as? Window }
}
