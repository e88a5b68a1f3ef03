import Foundation
import LocalProvider
import Testing

@Suite("MemoryCache")
struct MemoryCacheTests {
    @Test("evicts the least recently used entry, not the newest as NSCache on Linux does")
    func lruEviction() {
        let cache = MemoryCache<String, Int>(countLimit: 2)
        cache.setValue(1, forKey: "a")
        cache.setValue(2, forKey: "b")
        cache.setValue(3, forKey: "c")
        #expect(cache.value(forKey: "a") == nil)
        #expect(cache.value(forKey: "b") == 2)
        #expect(cache.value(forKey: "c") == 3)
    }

    @Test("a read makes an entry the most recently used")
    func readRefreshes() {
        let cache = MemoryCache<String, Int>(countLimit: 2)
        cache.setValue(1, forKey: "a")
        cache.setValue(2, forKey: "b")
        _ = cache.value(forKey: "a")
        cache.setValue(3, forKey: "c")
        #expect(cache.keysByRecency == ["c", "a"])
        #expect(cache.value(forKey: "b") == nil)
    }

    @Test("evicts by cost until under the limit, and refuses an entry bigger than the limit")
    func costLimit() {
        let cache = MemoryCache<String, String>(totalCostLimit: 10)
        cache.setValue("a", forKey: "a", cost: 4)
        cache.setValue("b", forKey: "b", cost: 4)
        cache.setValue("c", forKey: "c", cost: 4)
        #expect(cache.keysByRecency == ["c", "b"])
        #expect(cache.totalCost == 8)
        cache.setValue("huge", forKey: "huge", cost: 11)
        #expect(cache.value(forKey: "huge") == nil)
        #expect(cache.count == 2)
        cache.setValue("b2", forKey: "b", cost: 1)  // replacing adjusts the cost
        #expect(cache.totalCost == 5)
    }

    @Test("a negative cost counts as 0 and cannot make room beyond the limit")
    func negativeCost() {
        let cache = MemoryCache<String, String>(totalCostLimit: 10)
        cache.setValue("minus", forKey: "minus", cost: -100)
        for key in ["a", "b", "c"] { cache.setValue(key, forKey: key, cost: 4) }
        #expect(cache.totalCost <= 10)
        #expect(cache.keysByRecency == ["c", "b"], "evicted oldest first, the free entry too")
    }

    @Test("a NaN expiry stores nothing rather than a value that expires at once or never")
    func nanExpiry() {
        let cache = MemoryCache<String, Int>()
        cache.setValue(1, forKey: "a")
        cache.setValue(2, forKey: "a", expiry: .seconds(.nan))
        #expect(cache.value(forKey: "a") == nil)
        #expect(cache.count == 0)
    }

    @Test("never returns an expired entry")
    func expiry() {
        let clock = ManualClock()
        let cache = MemoryCache<String, Int>(clock: { clock.now })
        cache.setValue(1, forKey: "short", expiry: .seconds(10))
        cache.setValue(2, forKey: "forever")
        clock.advance(by: 9)
        #expect(cache.value(forKey: "short") == 1)
        clock.advance(by: 2)
        #expect(cache.value(forKey: "short") == nil)
        #expect(cache.value(forKey: "forever") == 2)
        #expect(cache.count == 1)
    }

    @Test("stays consistent under 10,000 concurrent operations")
    func concurrency() async {
        let cache = MemoryCache<Int, Int>(countLimit: 100)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<10 {
                group.addTask {
                    for index in 0..<1_000 {
                        let key = (task * 1_000 + index) % 250
                        cache.setValue(index, forKey: key, cost: 1)
                        _ = cache.value(forKey: (key + 7) % 250)
                        if index % 10 == 0 { cache.removeValue(forKey: key) }
                    }
                }
            }
        }
        #expect(cache.count <= 100)
        #expect(cache.count == cache.keysByRecency.count)
        #expect(cache.totalCost == cache.count)
    }
}

@Suite("MemoryStore and LayeredStore")
struct LayeredStoreTests {
    @Test("MemoryStore round-trips typed values and evicts by its limits")
    func memoryStore() throws {
        let store = MemoryStore(countLimit: 2)
        try store.save("a", for: StorageKey<String>("a"))
        try store.save(2, for: StorageKey<Int>("b"))
        try store.save([1, 2], for: StorageKey<[Int]>("c"))
        #expect(try store.load(StorageKey<String>("a")) == nil)
        #expect(try store.load(StorageKey<Int>("b")) == 2)
        #expect(try store.load(StorageKey<[Int]>("c")) == [1, 2])
    }

    @Test("reads from memory first, falls back to disk, and caches what it read")
    func layering() throws {
        let folder = try TemporaryFolder()
        let disk = try PlistFileStore(root: folder.url)
        let store = LayeredStore(memory: MemoryStore(countLimit: 10), disk: disk)
        let key = StorageKey<String>("name")
        try disk.save("from disk", for: key)
        #expect(try store.load(key) == "from disk")
        try disk.remove(key)  // behind the layered store's back
        #expect(try store.load(key) == "from disk", "served from memory")
        try store.save("both", for: key)
        #expect(try disk.load(key) == "both")
    }

    @Test("honours expiry on read in both layers (hyperoslo/Cache #281 does not)")
    func expiryOnRead() throws {
        let folder = try TemporaryFolder()
        let clock = ManualClock()
        let disk = try PlistFileStore(root: folder.url, clock: clock.function)
        let store = LayeredStore(
            memory: MemoryStore(countLimit: 10, clock: clock.function), disk: disk, clock: clock.function)
        let key = StorageKey<String>("token")
        try store.save("secret", for: key, expiry: .seconds(10))
        #expect(try store.load(key) == "secret")
        clock.advance(by: 11)
        #expect(try store.load(key) == nil)

        // A value read from disk is cached only until its own expiry.
        try disk.save("short", for: key, expiry: .seconds(10))
        #expect(try store.load(key) == "short")
        clock.advance(by: 11)
        #expect(try store.load(key) == nil)
    }

    /// A layered store over a `PlistFileStore` in `folder`, with a memory lifetime of 60 s.
    func layered(in folder: TemporaryFolder, clock: ManualClock) throws -> (LayeredStore, PlistFileStore) {
        let disk = try PlistFileStore(root: folder.url, clock: clock.function)
        let memory = MemoryStore(countLimit: 10, clock: clock.function)
        return (LayeredStore(memory: memory, disk: disk, memoryLifetime: 60, clock: clock.function), disk)
    }

    @Test("a value read from disk stays in memory for the memory lifetime, then the disk is asked again")
    func memoryLifetime() throws {
        let folder = try TemporaryFolder()
        let clock = ManualClock()
        let (store, disk) = try layered(in: folder, clock: clock)
        let key = StorageKey<String>("name")
        try disk.save("Rex", for: key)
        #expect(try store.load(key) == "Rex")
        try disk.save("Tom", for: key)  // behind the layered store's back
        clock.advance(by: 59)
        #expect(try store.load(key) == "Rex")
        clock.advance(by: 2)
        #expect(try store.load(key) == "Tom")
    }

    @Test("the async forms read and write both layers as the synchronous forms do")
    func asyncForms() async throws {
        let folder = try TemporaryFolder()
        let clock = ManualClock()
        let (store, disk) = try layered(in: folder, clock: clock)
        let key = StorageKey<String>("name")
        try await store.save("Rex", for: key)
        #expect(try await disk.load(key) == "Rex")
        try await store.remove(key)
        #expect(try await store.load(key) == nil)
        #expect(try await disk.load(key) == nil)
        try await disk.save("Tom", for: key)
        #expect(try await store.load(key) == "Tom", "from disk, then kept in memory")
        try await disk.save("Max", for: key)  // behind the layered store's back
        #expect(try await store.load(key) == "Tom", "from memory")
        clock.advance(by: 61)
        #expect(try await store.entry(for: key)?.value == "Max", "from disk once the memory lifetime is over")
    }

    @Test("an expiry that is not a point in time is refused, in memory and on disk")
    func invalidExpiry() throws {
        let folder = try TemporaryFolder()
        let key = StorageKey<String>("token")
        // Swift Testing would describe a date of NaN seconds, on which Foundation traps: the
        // expiries stay out of its expressions.
        let expiries = [Expiry.seconds(.nan), .seconds(.infinity), .date(Date(timeIntervalSince1970: .nan))]
        for store in [MemoryStore() as any LocalStore, try PlistFileStore(root: folder.url)] {
            for expiry in expiries {
                var refusedKey: String?
                do {
                    try store.save("x", for: key, expiry: expiry)
                } catch StorageError.invalidExpiry(_, let key) {
                    refusedKey = key
                }
                #expect(refusedKey == "token")
            }
            #expect(try store.load(key) == nil, "nothing was stored")
        }
    }
}
