/// A value an element owns, that re-renders the screen when it changes, as SwiftUI's `@State`.
///
/// ```swift
/// struct Counter: Element {
///     @State var count = 0
///     var body: some Element { Button("Tapped \(count)") { count += 1 } }
/// }
/// ```
///
/// The value lives in a box that survives the element being made again: when a body is
/// evaluated anew, each new element of the same type in the same place adopts the boxes of the
/// one it replaces. Models shared between screens can be `@Observable` classes instead (see
/// ``HostingController``).
@MainActor
@propertyWrapper
public struct State<Value> {
    let location: StateLocation<Value>

    /// State starting at `wrappedValue`.
    public init(wrappedValue: Value) {
        location = StateLocation(StateBox(wrappedValue))
    }

    /// The current value. Setting it re-renders what reads it.
    public var wrappedValue: Value {
        get { location.box.value }
        nonmutating set { location.box.value = newValue }
    }
}

/// Where a ``State`` finds its box; adoption points it at the box of the element it replaces.
@MainActor
final class StateLocation<Value> {
    var box: StateBox<Value>
    init(_ box: StateBox<Value>) { self.box = box }
}

/// The value behind a ``State``. Reading it while a body is evaluated subscribes that body's
/// host; writing it asks every subscribed host to update, synchronously on the main actor.
@MainActor
final class StateBox<Value> {
    private var stored: Value
    private var readers: [WeakHost] = []

    init(_ value: Value) { stored = value }

    var value: Value {
        get {
            if let host = RenderTracking.current, !readers.contains(where: { $0.host === host }) {
                readers.append(WeakHost(host: host))
            }
            return stored
        }
        set {
            stored = newValue
            readers.removeAll { $0.host == nil }
            for reader in readers { reader.host?.setNeedsUpdate() }
        }
    }
}

private struct WeakHost {
    weak var host: (any HostUpdating)?
}

/// The host whose body is being evaluated, so that state read there knows whom to tell.
@MainActor
enum RenderTracking {
    static var current: (any HostUpdating)?
}

/// A property that takes over its predecessor's storage when its element is made again.
@MainActor
protocol AdoptableState {
    func adopt(_ previous: Any)
}

extension State: AdoptableState {
    func adopt(_ previous: Any) {
        guard let previous = previous as? State<Value> else { return }
        location.box = previous.location.box
    }
}

/// Moves state boxes from an element to the one that replaces it.
@MainActor
enum StateAdoption {
    static func adopt(from old: any Element, into new: any Element) {
        let previous = Dictionary(
            Mirror(reflecting: old).children.compactMap { child in child.label.map { ($0, child.value) } },
            uniquingKeysWith: { first, _ in first })
        for child in Mirror(reflecting: new).children {
            guard let label = child.label, let state = child.value as? any AdoptableState,
                let old = previous[label]
            else { continue }
            state.adopt(old)
        }
    }
}
