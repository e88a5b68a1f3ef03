import RIBs

extension Reactor {
    /// Calls `receive` with the value of the pulse at `keyPath` each time a mutation sets it, on
    /// the main actor, as the state with it is published (ReactorKit's `pulse(_:)`): not for the
    /// value the state holds when this is called, and not again for a state that kept it.
    ///
    /// - Returns: The subscription; cancel it to stop (with the interactor's active scope,
    ///   `cancelOnDeactivate(interactor:)`).
    public func pulse<Value: Sendable>(
        _ keyPath: KeyPath<State, Pulse<Value>> & Sendable,
        _ receive: @escaping @MainActor @Sendable (Value) -> Void
    ) -> any Cancellable {
        let seen = SeenSettings(currentState[keyPath: keyPath].settings)
        return state.sink { state in
            MainActor.assumeIsolated {
                let pulse = state[keyPath: keyPath]
                guard pulse.settings != seen.count else { return }
                seen.count = pulse.settings
                receive(pulse.value)
            }
        }
    }
}

/// How many settings of a pulse its observer has had.
@MainActor
private final class SeenSettings {
    var count: Int
    init(_ count: Int) { self.count = count }
}
