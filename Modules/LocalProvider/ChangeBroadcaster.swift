import Synchronization

/// Delivers per-key changes to the ``LocalStore/changes(for:)`` streams of one store.
final class ChangeBroadcaster: Sendable {
    private struct Subscriber {
        let deliver: @Sendable ((any Sendable)?) -> Void
    }

    private let subscribers = Mutex<[String: [UInt64: Subscriber]]>([:])
    private let nextID = Atomic<UInt64>(0)

    /// A stream for `key` that starts with `current` and then gets every published change.
    func stream<Value: Sendable>(for key: String, current: () -> Value?) -> AsyncStream<Value?> {
        stream(for: key) { deliverFirst in deliverFirst(current()) }
    }

    /// A stream for `key` whose first element comes later: `readFirst` is handed the function to
    /// give it to, and may call it from any thread, such as a store's ``IOQueue`` once it has
    /// read the file. Changes published before then wait and follow it, so the stream ends on
    /// the latest value even when the read raced a change.
    func stream<Value: Sendable>(
        for key: String, readFirst: (_ deliverFirst: @escaping @Sendable (Value?) -> Void) -> Void
    ) -> AsyncStream<Value?> {
        let (stream, continuation) = AsyncStream<Value?>.makeStream()
        let held = HeldChanges<Value>()
        let id = nextID.add(1, ordering: .relaxed).newValue
        subscribers.withLock { table in
            table[key, default: [:]][id] = Subscriber { change in
                held.changes.withLock { held in
                    if held != nil {
                        held?.append(change as? Value)
                    } else {
                        continuation.yield(change as? Value)
                    }
                }
            }
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { table in _ = table[key]?.removeValue(forKey: id) }
        }
        readFirst { first in
            held.changes.withLock { held in
                continuation.yield(first)
                for change in held ?? [] { continuation.yield(change) }
                held = nil
            }
        }
        return stream
    }

    /// Sends `value` (or `nil` for a removal) to every stream of `key`.
    func publish(_ value: (any Sendable)?, for key: String) {
        let targets = subscribers.withLock { $0[key].map { Array($0.values) } ?? [] }
        for target in targets { target.deliver(value) }
    }
}

/// The changes published to a stream before its first element; `nil` once it is delivered.
private final class HeldChanges<Value: Sendable>: Sendable {
    let changes = Mutex<[Value?]?>([])
}
