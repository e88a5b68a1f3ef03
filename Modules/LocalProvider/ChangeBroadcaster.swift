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
        let (stream, continuation) = AsyncStream<Value?>.makeStream()
        let id = nextID.add(1, ordering: .relaxed).newValue
        subscribers.withLock { table in
            table[key, default: [:]][id] = Subscriber { value in continuation.yield(value as? Value) }
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { table in _ = table[key]?.removeValue(forKey: id) }
        }
        continuation.yield(current())
        return stream
    }

    /// Sends `value` (or `nil` for a removal) to every stream of `key`.
    func publish(_ value: (any Sendable)?, for key: String) {
        let targets = subscribers.withLock { $0[key].map { Array($0.values) } ?? [] }
        for target in targets { target.deliver(value) }
    }
}
