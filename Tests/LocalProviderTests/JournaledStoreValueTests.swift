import Foundation
import LocalProvider
import Testing

@Suite("JournaledStore's value")
struct JournaledStoreValueTests {
    @Test(
        "value follows every append, fold, replace and load, with another store's changes from the next operation"
    )
    func valueFollowsTheFiles() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        let store = JournaledStore<Shelf>(folder: folder, name: "shelf", foldThreshold: 5)
        let other = JournaledStore<Shelf>(folder: folder, name: "shelf", foldThreshold: 3)
        #expect(store.value == nil, "nothing is published before a load")
        _ = try store.load()
        var added = 0
        // Each operation in turn, by either store: 7 and 10 share no factor, so every kind comes
        // after every other; every third step is the other store's.
        for step in 0..<200 {
            let writer = step % 3 == 2 ? other : store
            switch step * 7 % 10 {
            case 0:
                try writer.fold()
            case 1:
                try writer.replace(with: Shelf((0..<step % 4).map { "r\(step)-\($0)" }))
            case 2:
                _ = try writer.load()
            case 3, 4:
                if let title = try fresh(folder).titles.first { try writer.append(.remove(title)) }
            default:
                added += 1
                try writer.append(.add("t\(added)"))
            }
            if writer === store {
                #expect(store.value == (try fresh(folder)), "step \(step)")
            }
        }
        try store.append(.add("last"))
        #expect(store.value == (try fresh(folder)))
    }

    @Test("an append changes the published value in place: the whole value is not copied")
    func appendDoesNotCopyTheValue() throws {
        let temporary = try TemporaryFolder()
        let store = JournaledStore<Shelf>(folder: temporary.url, name: "shelf")
        try store.replace(with: Shelf((0..<1_000).map { "title \($0)" }))
        _ = try store.load()
        try store.append(.remove("title 0"))  // the first after a load copies: the load shared it
        let before = try #require(buffer(of: store))
        for index in 1...5 {
            try store.append(.remove("title \(index)"))
            #expect(buffer(of: store) == before, "append \(index) copied the published value")
        }
        #expect(store.value?.titles.first == "title 6")
        #expect(store.value?.titles.count == 994)
    }

    @Test("after damage found while catching up, value is what was readable, and the next append adds to it")
    func valueAfterDamage() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        let store = JournaledStore<Shelf>(folder: folder, name: "shelf")
        try store.append(.add("Dune"))
        try store.append(.add("Emma"))
        try JournaledStore<Shelf>(folder: folder, name: "shelf").append(.add("Hild"))
        // A whole line that is not a change, after the other store's.
        let journal = try FileHandle(forWritingTo: temporary.file("shelf.journal"))
        try journal.seekToEnd()
        try journal.write(contentsOf: Data("{\"sequence\":4,\"chan\n".utf8))
        try journal.close()
        #expect(throws: StorageError.self) { try store.append(.add("Kim")) }
        #expect(store.value == (try fresh(folder)))
        try store.append(.add("Kim"))
        #expect(store.value == (try fresh(folder)))
        #expect(store.value?.titles == ["Dune", "Emma", "Hild", "Kim"])
    }

    /// The address of the published titles' storage; the copy read here is let go at once.
    private func buffer(of store: JournaledStore<Shelf>) -> UInt? {
        store.value?.titles.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    /// What a store that has not read the folder before reads from it now.
    private func fresh(_ folder: URL) throws -> Shelf {
        try JournaledStore<Shelf>(folder: folder, name: "shelf").load().value
    }
}
