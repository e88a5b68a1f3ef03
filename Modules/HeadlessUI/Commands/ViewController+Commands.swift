extension ViewController {
    /// The responders for a command, first to last: the controller on screen deepest in this one
    /// (the presented one, the top of a navigation stack, the selected tab), then its parents and
    /// presenters up to this controller.
    package var commandResponders: [ViewController] {
        var deepest = self
        while let next = deepest.presentedViewController ?? deepest.visibleChild { deepest = next }
        var chain: [ViewController] = []
        var current: ViewController? = deepest
        while let responder = current {
            chain.append(responder)
            if responder === self { break }
            current = responder.parent ?? responder.presentingViewController
        }
        return chain
    }
}

extension Window {
    /// Sends `command` along the responder chain of the root controller until one handles it
    /// or fails it: at each controller, first the declared ``ViewController/keyCommands`` with
    /// its name, then ``ViewController/handle(_:)``; last the window's own ``keyCommands``.
    ///
    /// - Returns: ``CommandResult/notHandled`` when no controller on screen knows the command.
    public func perform(_ command: TerminalCommand) -> CommandResult {
        for responder in rootViewController?.commandResponders ?? [] {
            if let declared = responder.keyCommands.first(where: { $0.name == command.name }) {
                return declared.perform(.typed(command))
            }
            let result = responder.handle(command)
            if result != .notHandled { return result }
        }
        if let declared = keyCommands.first(where: { $0.name == command.name }) {
            return declared.perform(.typed(command))
        }
        return .notHandled
    }
}
