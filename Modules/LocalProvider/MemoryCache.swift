import Foundation
import Synchronization

/// A thread-safe least-recently-used cache with count and cost limits and optional expiry.
///
/// Unlike `NSCache` on Linux — which evicts the *newest* entry first on ties and has no LRU —
/// this evicts the least recently used entry, and an expired entry is never returned.
///
/// ```swift
/// let cache = MemoryCache<URL, Data>(countLimit: 100, totalCostLimit: 10_000_000)
/// cache.setValue(data, forKey: url, cost: data.count)
/// ```
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Node {
        var key: Key
        var value: Value
        var cost: Int
        var expiresAt: Date?
        var newer: Int?
        var older: Int?
    }

    private struct State {
        var nodes: [Node?] = []
        var free: [Int] = []
        var index: [Key: Int] = [:]
        var newest: Int?
        var oldest: Int?
        var totalCost = 0
    }

    /// The most entries kept; 0 means no limit.
    public let countLimit: Int
    /// The most total cost kept; 0 means no limit.
    public let totalCostLimit: Int
    private let state = Mutex(State())
    private let now: @Sendable () -> Date

    /// Creates a cache.
    ///
    /// - Parameters:
    ///   - countLimit: The most entries; 0 for no limit.
    ///   - totalCostLimit: The most total cost; 0 for no limit.
    ///   - clock: The time source for expiry; tests pass their own.
    public init(
        countLimit: Int = 0, totalCostLimit: Int = 0, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.countLimit = max(0, countLimit)
        self.totalCostLimit = max(0, totalCostLimit)
        self.now = clock
    }

    /// The value for `key`, marking it most recently used; `nil` if absent or expired.
    public func value(forKey key: Key) -> Value? {
        let now = self.now()
        return state.withLock { state in
            guard let slot = state.index[key], let node = state.nodes[slot] else { return nil }
            if let expiresAt = node.expiresAt, expiresAt <= now {
                Self.remove(slot, from: &state)
                return nil
            }
            Self.moveToNewest(slot, in: &state)
            return node.value
        }
    }

    /// Stores `value` for `key` as the most recently used entry, then evicts the least recently
    /// used entries until both limits hold. An entry whose cost alone exceeds the cost limit is
    /// not stored. A negative cost counts as 0, so that no entry can make room for others beyond
    /// the limit; an expiry that is not a point in time (NaN seconds) stores nothing.
    public func setValue(_ value: Value, forKey key: Key, cost: Int = 0, expiry: Expiry = .never) {
        let cost = max(0, cost)
        let expiresAt = expiry.date(from: now())
        if let expiresAt, !expiresAt.timeIntervalSince1970.isFinite {
            removeValue(forKey: key)
            return
        }
        state.withLock { state in
            if let slot = state.index[key] { Self.remove(slot, from: &state) }
            guard totalCostLimit == 0 || cost <= totalCostLimit else { return }
            let node = Node(
                key: key, value: value, cost: cost, expiresAt: expiresAt, newer: nil, older: state.newest)
            let slot: Int
            if let reused = state.free.popLast() {
                slot = reused
                state.nodes[slot] = node
            } else {
                slot = state.nodes.count
                state.nodes.append(node)
            }
            if let newest = state.newest { state.nodes[newest]?.newer = slot }
            state.newest = slot
            if state.oldest == nil { state.oldest = slot }
            state.index[key] = slot
            state.totalCost += cost
            while let oldest = state.oldest,
                (countLimit > 0 && state.index.count > countLimit)
                    || (totalCostLimit > 0 && state.totalCost > totalCostLimit)
            {
                Self.remove(oldest, from: &state)
            }
        }
    }

    /// Removes the entry for `key`.
    public func removeValue(forKey key: Key) {
        state.withLock { state in
            if let slot = state.index[key] { Self.remove(slot, from: &state) }
        }
    }

    /// Removes every entry.
    public func removeAll() {
        state.withLock { $0 = State() }
    }

    /// The number of entries, including expired ones not yet dropped.
    public var count: Int { state.withLock { $0.index.count } }

    /// The sum of the entries' costs.
    public var totalCost: Int { state.withLock { $0.totalCost } }

    /// The keys from most to least recently used.
    public var keysByRecency: [Key] {
        state.withLock { state in
            var keys: [Key] = []
            var cursor = state.newest
            while let slot = cursor, let node = state.nodes[slot] {
                keys.append(node.key)
                cursor = node.older
            }
            return keys
        }
    }

    private static func unlink(_ slot: Int, in state: inout State) {
        guard let node = state.nodes[slot] else { return }
        if let newer = node.newer {
            state.nodes[newer]?.older = node.older
        } else {
            state.newest = node.older
        }
        if let older = node.older {
            state.nodes[older]?.newer = node.newer
        } else {
            state.oldest = node.newer
        }
        state.nodes[slot]?.newer = nil
        state.nodes[slot]?.older = nil
    }

    private static func moveToNewest(_ slot: Int, in state: inout State) {
        guard state.newest != slot else { return }
        unlink(slot, in: &state)
        state.nodes[slot]?.older = state.newest
        if let newest = state.newest { state.nodes[newest]?.newer = slot }
        state.newest = slot
        if state.oldest == nil { state.oldest = slot }
    }

    private static func remove(_ slot: Int, from state: inout State) {
        guard let node = state.nodes[slot] else { return }
        unlink(slot, in: &state)
        state.nodes[slot] = nil
        state.free.append(slot)
        state.index.removeValue(forKey: node.key)
        state.totalCost -= node.cost
    }
}
