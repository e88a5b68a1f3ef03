import Layout
import TerminalCore

/// Key presses, pastes and mouse events, delivered as UIKit delivers presses and touches: to
/// the focused view, then along the responder chain's key commands.
extension Window {
    /// Delivers `event`, once the preferred view has the focus if nothing had it
    /// (`updateFocusIfNeeded()`):
    ///
    /// - A key goes to the focused view (``Focusable``), then to the key commands of the
    ///   controllers on screen, deepest first (``availableKeyCommands``); Tab and Shift-Tab
    ///   that nothing took move the focus.
    /// - A paste goes to the focused view.
    /// - A mouse event goes to the deepest ``MouseResponder`` under it, then up its superviews;
    ///   a press focuses the focusable view it lands on.
    /// - A terminal's reply goes to no view.
    ///
    /// - Returns: what the view or command did; ``CommandResult/notHandled`` when nothing took
    ///   the event, so that the application may (Ctrl-C, Ctrl-L).
    @discardableResult
    public func send(_ event: InputEvent) -> CommandResult {
        updateFocusIfNeeded()
        switch event {
        case .key(let press): return sendKey(press)
        case .paste(let text):
            guard let focused = focusedView as? any Focusable else { return .notHandled }
            return focused.handlePaste(text) ? .handled : .notHandled
        case .mouse(let mouse): return sendMouse(mouse)
        case .reply: return .notHandled  // the application's business, not a view's
        }
    }

    private func sendKey(_ press: KeyPress) -> CommandResult {
        if let focused = focusedView as? any Focusable, focused.handleKey(press) { return .handled }
        for command in availableKeyCommands where command.matches(press) {
            return command.perform(.key(press))
        }
        if press.key == .tab {
            return moveFocus(backward: press.modifiers.contains(.shift)) ? .handled : .notHandled
        }
        return .notHandled
    }

    private func sendMouse(_ event: MouseEvent) -> CommandResult {
        let chain = views(at: event.x, event.y)
        if case .press = event.kind,
            let target = chain.first(where: { ($0.view as? any Focusable)?.canBecomeFocused == true })
        {
            focus(target.view)
        }
        for (view, origin) in chain {
            guard let responder = view as? any MouseResponder else { continue }
            let point = Canvas.Position(x: event.x - origin.x, y: event.y - origin.y)
            if responder.handleMouse(event, at: point) { return .handled }
        }
        return .notHandled
    }

    // MARK: Key commands

    /// The key commands on screen: those of the topmost controller's responder chain, deepest
    /// first, then the window's own ``keyCommands``, without those a deeper controller's
    /// command hides (same key or same name).
    public var availableKeyCommands: [KeyCommand] {
        var seenKeys = Set<KeyPress>()
        var seenNames = Set<String>()
        var commands: [KeyCommand] = []
        let declared = (rootViewController?.commandResponders ?? []).map(\.keyCommands) + [keyCommands]
        for commandsOfOneResponder in declared {
            for var command in commandsOfOneResponder {
                command.keys.removeAll { seenKeys.contains($0) }
                if let name = command.name, seenNames.contains(name) { command.name = nil }
                guard !command.keys.isEmpty || command.name != nil else { continue }
                seenKeys.formUnion(command.keys)
                if let name = command.name { seenNames.insert(name) }
                commands.append(command)
            }
        }
        return commands
    }

    /// Completions for a command line typed at a prompt: the names of the commands on screen
    /// that start with `text`, while it is still the first word. For ``TextField/completion``.
    public func commandCompletions(for text: String) -> [String] {
        guard !text.contains(" ") else { return [] }
        let prefix = text.lowercased()
        return availableKeyCommands.compactMap(\.name).filter { $0.hasPrefix(prefix) }.sorted()
    }

    // MARK: Focus

    /// The focused view, if it is still on screen and can be focused.
    public var focusedView: View? {
        guard let view = focusStorage.view, view.isDescendant(of: self), isOnScreen(view),
            (view as? any Focusable)?.canBecomeFocused == true
        else { return nil }
        return view
    }

    /// Gives `view` the focus (`nil` clears it). Returns `false`, changing nothing, when the
    /// view is not a focusable view on screen in this window.
    @discardableResult
    public func focus(_ view: View?) -> Bool {
        guard let view else {
            focusStorage.view = nil
            return true
        }
        guard (view as? any Focusable)?.canBecomeFocused == true, view.isDescendant(of: self),
            isOnScreen(view)
        else { return false }
        focusStorage.view = view
        return true
    }

    /// Gives the focus to the view the deepest controller on screen prefers
    /// (``ViewController/preferredFocusedView``) when nothing on screen has it, as UIKit's focus
    /// system moves focus into a presented controller. ``render()`` calls it before every frame
    /// and ``send(_:)`` before every event: the frame that shows a sheet, a pushed form or a new
    /// root already shows its field's cursor, and the next key or paste goes where that frame
    /// said. A focus moved by Tab, a click or code stays where it is.
    func updateFocusIfNeeded() {
        guard focusedView == nil, let preferred = preferredFocusedView else { return }
        focus(preferred)
    }

    /// The views Tab visits, in reading order (top to bottom, then left to right): focusable
    /// views on screen inside the topmost controller's view.
    var focusableViews: [View] {
        guard let scope = topmostController?.viewIfLoaded ?? subviews.first else { return [] }
        var found: [(view: View, origin: Canvas.Position)] = []
        collect(scope, origin: scope.cellOrigin(in: self), into: &found)
        return found.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element.origin, rhs.element.origin)
            return (a.y, a.x, lhs.offset) < (b.y, b.x, rhs.offset)
        }.map(\.element.view)
    }

    /// Moves the focus to the next focusable view (or the previous one), wrapping around.
    @discardableResult
    func moveFocus(backward: Bool = false) -> Bool {
        let views = focusableViews
        guard !views.isEmpty else { return false }
        let current = focusedView.flatMap { focused in views.firstIndex { $0 === focused } }
        let next: Int
        if let current {
            next = (current + (backward ? views.count - 1 : 1)) % views.count
        } else {
            next = backward ? views.count - 1 : 0
        }
        return focus(views[next])
    }

    /// The view the deepest controller on screen wants focused when nothing is.
    private var preferredFocusedView: View? {
        for responder in rootViewController?.commandResponders ?? [] {
            if let view = responder.preferredFocusedView { return view }
        }
        return nil
    }

    private func collect(
        _ view: View, origin: Canvas.Position, into found: inout [(view: View, origin: Canvas.Position)]
    ) {
        guard !view.isHidden else { return }
        if (view as? any Focusable)?.canBecomeFocused == true { found.append((view, origin)) }
        for subview in view.subviews {
            collect(subview, origin: subview.cellOrigin(in: self), into: &found)
        }
    }

    private func isOnScreen(_ view: View) -> Bool {
        var current: View? = view
        while let candidate = current, candidate !== self {
            if candidate.isHidden { return false }
            current = candidate.superview
        }
        if let scope = topmostController?.viewIfLoaded, !view.isDescendant(of: scope) { return false }
        return true
    }

    // MARK: Hit testing

    /// The visible views under the cell (`x`, `y`), deepest first, with each one's top-left
    /// cell; drawn in the same cells as ``Renderer`` draws them.
    func views(at x: Int, _ y: Int) -> [(view: View, origin: Canvas.Position)] {
        var chain: [(View, Canvas.Position)] = []
        hitTest(self, originX: 0, originY: 0, x: x, y: y, chain: &chain)
        return chain.reversed()
    }

    private func hitTest(
        _ view: View, originX: Double, originY: Double, x: Int, y: Int, chain: inout [(View, Canvas.Position)]
    ) {
        guard !view.isHidden else { return }
        let left = Renderer.cells(originX)
        let top = Renderer.cells(originY)
        let right = Renderer.cells(originX + view.frame.width)
        let bottom = Renderer.cells(originY + view.frame.height)
        guard x >= left, x < right, y >= top, y < bottom else { return }
        chain.append((view, Canvas.Position(x: left, y: top)))
        // The last subview is drawn on top, so it is hit first.
        for subview in view.subviews.reversed() {
            let count = chain.count
            hitTest(
                subview, originX: originX + subview.frame.origin.x, originY: originY + subview.frame.origin.y,
                x: x, y: y, chain: &chain)
            if chain.count > count { return }
        }
    }
}

extension View {
    /// The view's top-left cell in `ancestor`, rounded as ``Renderer`` rounds it.
    func cellOrigin(in ancestor: View) -> Canvas.Position {
        var x = 0.0
        var y = 0.0
        var current: View? = self
        while let view = current, view !== ancestor {
            x += view.frame.origin.x
            y += view.frame.origin.y
            current = view.superview
        }
        return Canvas.Position(x: Renderer.cells(x), y: Renderer.cells(y))
    }
}

/// The window's focused view, held weakly.
final class FocusStorage {
    weak var view: View?
}
