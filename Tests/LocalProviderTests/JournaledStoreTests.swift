import Foundation
import LocalProvider
import Testing

@Suite("JournaledStore")
struct JournaledStoreTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    func store(foldThreshold: Int = 256) -> JournaledStore<Shelf> {
        JournaledStore(folder: folder.url, name: "shelf", foldThreshold: foldThreshold)
    }

    func journalLines() throws -> [Substring] {
        try String(contentsOf: folder.file("shelf.journal"), encoding: .utf8).split(separator: "\n")
    }

    @Test("each change is one journal line; a new store reads the snapshot and the changes after it")
    func roundTrip() throws {
        let store = store()
        #expect(try store.load().value == Shelf())
        try store.append(.add("Dune"))
        try store.append(.add("Emma"))
        try store.append(.remove("Dune"))
        #expect(try journalLines().count == 3)
        let reopened = try self.store().load()
        #expect(reopened.value == Shelf(["Emma"]))
        #expect(reopened.setAside.isEmpty)
    }

    @Test("after the fold threshold the value is written whole and the journal starts again")
    func folds() throws {
        let store = store(foldThreshold: 3)
        for title in ["a", "b", "c", "d"] { try store.append(.add(title)) }
        #expect(
            try journalLines().count == 1, "three changes went into the snapshot; the fourth is journaled")
        #expect(try self.store().load().value == Shelf(["a", "b", "c", "d"]))
        #expect(folder.fileNames == ["shelf.journal", "shelf.snapshot"])
    }

    @Test("a kill between writing the snapshot and replacing the journal applies no change twice")
    func killInsideAFold() throws {
        let store = store()
        try store.append(.add("a"))
        try store.append(.add("b"))
        let journal = try Data(contentsOf: store.journalURL)
        try store.fold()
        try journal.write(to: store.journalURL)  // as if the journal had not been replaced yet
        #expect(try self.store().load().value == Shelf(["a", "b"]), "not a, b, a, b")
    }

    @Test("a torn last line is cut off before the next append, which would otherwise be glued to it")
    func tornTail() throws {
        try store().append(.add("acknowledged"))
        let handle = try FileHandle(forWritingTo: folder.file("shelf.journal"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"sequence":2,"change":{"add":{"_0":"cut sh"#.utf8))
        try handle.close()
        let next = store()
        #expect(try next.load().value == Shelf(["acknowledged"]))
        try next.append(.add("after the crash"))
        let reopened = try store().load()
        #expect(reopened.setAside.isEmpty)
        #expect(reopened.value == Shelf(["acknowledged", "after the crash"]))
    }

    @Test("damaged journal lines are reported and kept aside; every readable change is kept")
    func damagedLines() throws {
        let store = store()
        for title in ["a", "b", "c"] { try store.append(.add(title)) }
        var lines = try journalLines().map(String.init)
        lines[1] = "not a change"
        let damaged = Data((lines.joined(separator: "\n") + "\n").utf8)
        try damaged.write(to: store.journalURL)
        let loaded = try self.store().load()
        #expect(loaded.value == Shelf(["a", "c"]))
        guard case .damaged(_, let aside, .journalLines([2])) = try #require(loaded.setAside.first) else {
            Issue.record("expected damaged(journalLines([2])), got \(loaded.setAside)")
            return
        }
        #expect(try Data(contentsOf: aside) == damaged)
        let again = try self.store().load()
        #expect(again.setAside.isEmpty, "the readable changes were folded; the journal is clean")
        #expect(again.value == Shelf(["a", "c"]))
    }

    @Test("a store that could not read part of its files never folds over it (issue 15, item 1)")
    func noFoldOverWhatWasNotRead() throws {
        try store().replace(with: Shelf(["kept"]))
        try Data("not a change\n".utf8).write(to: folder.file("shelf.journal"))
        let store = store(foldThreshold: 2)
        let loaded = try store.load()
        #expect(loaded.setAside.count == 1)
        #expect(loaded.value == Shelf(["kept"]))
        try store.append(.add("a"))
        try store.append(.add("b"))  // folds
        #expect(try self.store().load().value == Shelf(["kept", "a", "b"]))
        let copy = try #require(folder.setAsideCopies(of: "shelf.journal").first)
        #expect(try String(contentsOf: folder.file(copy), encoding: .utf8) == "not a change\n")
    }

    @Test("set-aside copies made in the same second never replace each other (issue 15, item 7)")
    func setAsideNamesAreUnique() throws {
        for round in 0..<3 {
            try Data("damaged \(round)".utf8).write(to: folder.file("shelf.snapshot"))
            #expect(try store().load().setAside.count == 1)
        }
        let copies = folder.setAsideCopies(of: "shelf.snapshot")
        #expect(copies.count == 3)
        let contents = try Set(copies.map { try String(contentsOf: folder.file($0), encoding: .utf8) })
        #expect(contents == ["damaged 0", "damaged 1", "damaged 2"])
    }

    @Test("two stores on one folder keep each other's changes, across folds")
    func twoWriters() throws {
        let first = store(foldThreshold: 3)
        let second = store(foldThreshold: 3)
        try first.append(.add("1"))
        try second.append(.add("2"))  // reads the first's line before appending
        try first.append(.add("3"))  // folds: a new journal file
        try second.append(.add("4"))  // sees the fold and reloads
        try first.append(.add("5"))
        try second.fold()  // writes what the second store holds: the first's changes too
        #expect(try store().load().value == Shelf(["1", "2", "3", "4", "5"]))
    }

    @Test("loading removes the temporary files of killed writers, and only its own")
    func sweepsTemporaryFiles() throws {
        try store().append(.add("a"))
        let ours = ".shelf.snapshot.\(UUID().uuidString).tmp"
        let theirs = ".other.plist.\(UUID().uuidString).tmp"
        for name in [ours, theirs] { try Data("partial".utf8).write(to: folder.file(name)) }
        _ = try store().load()
        #expect(!folder.fileNames.contains(ours))
        #expect(folder.fileNames.contains(theirs))
    }

    @Test("a bad name is a typed error when the store is used")
    func badName() {
        let store = JournaledStore<Shelf>(folder: folder.url, name: "../up")
        #expect(throws: StorageError.self) { try store.load() }
        #expect(throws: StorageError.self) { try store.append(.add("x")) }
    }
}
