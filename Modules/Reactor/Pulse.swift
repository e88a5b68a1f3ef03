/// A part of a reactor's state that is news each time a mutation sets it, even to the value it
/// had, as ReactorKit's `@Pulse`: a notice said twice is shown twice, and a state that merely
/// kept it (after another mutation) does not show it again. Observe it with
/// ``Reactor/pulse(_:_:)``, which calls back once per setting.
///
/// ```swift
/// struct State { var notice = Pulse<String?>(nil) }
/// // reduce: state.notice.value = "Saved."
/// reactor.pulse(\.notice) { notice in show(notice) }.cancelOnDeactivate(interactor: self)
/// ```
public struct Pulse<Value: Sendable>: Sendable {
    /// The value last set.
    public var value: Value {
        didSet { settings &+= 1 }
    }
    /// How many times ``value`` was set: what tells a new setting from a kept one.
    private(set) var settings = 0

    /// A pulse holding `value`, never set yet.
    public init(_ value: Value) {
        self.value = value
    }
}

extension Pulse: Equatable where Value: Equatable {}
