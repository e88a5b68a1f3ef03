/// A router's children: attach order kept, and attach, detach and membership in amortised O(1),
/// so a router with 100,000 children does not go quadratic as an array search would.
///
/// Detached slots become holes that are compacted away once they are half the list.
@MainActor
struct ChildList {
    private var slots: [(any Routing)?] = []
    private var slotIndex: [ObjectIdentifier: Int] = [:]
    private var holes = 0
    private var cachedElements: [any Routing]? = []

    /// The children in attach order.
    var elements: [any Routing] {
        mutating get {
            if let cachedElements { return cachedElements }
            let elements = slots.compactMap { $0 }
            cachedElements = elements
            return elements
        }
    }

    func contains(_ child: any Routing) -> Bool {
        slotIndex[ObjectIdentifier(child)] != nil
    }

    /// Appends `child`; returns false, changing nothing, if it is already here.
    mutating func append(_ child: any Routing) -> Bool {
        let key = ObjectIdentifier(child)
        guard slotIndex[key] == nil else { return false }
        slotIndex[key] = slots.count
        slots.append(child)
        cachedElements = nil
        return true
    }

    mutating func remove(_ child: any Routing) {
        guard let index = slotIndex.removeValue(forKey: ObjectIdentifier(child)) else { return }
        slots[index] = nil
        holes += 1
        cachedElements = nil
        if slotIndex.isEmpty {
            slots.removeAll(keepingCapacity: true)
            holes = 0
        } else if holes > 32 && holes * 2 > slots.count {
            compact()
        }
    }

    private mutating func compact() {
        slots = slots.filter { $0 != nil }
        slotIndex.removeAll(keepingCapacity: true)
        for (index, child) in slots.enumerated() {
            if let child { slotIndex[ObjectIdentifier(child)] = index }
        }
        holes = 0
    }
}
