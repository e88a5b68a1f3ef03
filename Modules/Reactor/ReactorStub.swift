/// The test double of a ``Reactor``, like ReactorKit's `Stub`: with ``Reactor/isStubEnabled``
/// set, actions are recorded here instead of mutating, and the state is set directly.
@MainActor
public final class ReactorStub<R: Reactor> {
    /// Whether stub mode is on; ``Reactor/isStubEnabled`` sets it.
    public var isEnabled = false

    /// Every action sent while stub mode was on, in order.
    public private(set) var actions: [R.Action] = []

    /// The last action recorded.
    public var lastAction: R.Action? { actions.last }

    private let publish: (R.State) -> Void

    init(publish: @escaping (R.State) -> Void) {
        self.publish = publish
    }

    /// Sets the reactor's current state and publishes it, bypassing `reduce`.
    public func setState(_ state: R.State) {
        publish(state)
    }

    func record(_ action: R.Action) {
        actions.append(action)
    }
}
