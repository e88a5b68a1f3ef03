import Foundation
import LocalProvider
import Testing

/// A store keeps the value as the files hold it, to fold it: a fold writes that value whole, so
/// a store whose own value fell behind the files would write older todos over newer ones.
@Suite("JournaledStore's own value: what a fold writes is what the files held")
struct JournaledStoreStateTests {
    @Test(
        "two stores on one folder, every append, fold, replace and load in turn: the files always hold every change"
    )
    func foldsWriteEveryChange() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        let store = JournaledStore<Shelf>(folder: folder, name: "shelf", foldThreshold: 5)
        let other = JournaledStore<Shelf>(folder: folder, name: "shelf", foldThreshold: 3)
        _ = try store.load()
        var expected = Shelf()
        var added = 0
        // Each operation in turn, by either store: 7 and 10 share no factor, so every kind comes
        // after every other; every third step is the other store's.
        for step in 0..<200 {
            let writer = step % 3 == 2 ? other : store
            switch step * 7 % 10 {
            case 0:
                try writer.fold()
            case 1:
                expected = Shelf((0..<step % 4).map { "r\(step)-\($0)" })
                try writer.replace(with: expected)
            case 2:
                #expect(try writer.load().value == expected, "step \(step)")
            case 3, 4:
                if let title = expected.titles.first {
                    expected.apply(.remove(title))
                    try writer.append(.remove(title))
                }
            default:
                added += 1
                expected.apply(.add("t\(added)"))
                try writer.append(.add("t\(added)"))
            }
            #expect(try fresh(folder) == expected, "step \(step)")
        }
        try store.fold()
        try other.fold()
        #expect(try fresh(folder) == expected)
    }

    @Test("after damage found while catching up, the next append adds to what was readable")
    func appendAfterDamage() throws {
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
        #expect(try fresh(folder).titles == ["Dune", "Emma", "Hild"])
        try store.append(.add("Kim"))
        try store.fold()
        #expect(try fresh(folder).titles == ["Dune", "Emma", "Hild", "Kim"])
    }

    /// What a store that has not read the folder before reads from it now.
    private func fresh(_ folder: URL) throws -> Shelf {
        try JournaledStore<Shelf>(folder: folder, name: "shelf").load().value
    }
}
