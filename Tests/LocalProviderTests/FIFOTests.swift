import Foundation
import LocalProvider
import Testing

/// A FIFO where a store's file should be is damage, as a folder there is: set aside and reported
/// as not a file at once, never opened in a way that waits for a writer (issue 32, item 2).
@Suite("A FIFO where a store's file should be")
struct FIFOTests {
    enum JournalFile: String, CaseIterable, Sendable {
        case snapshot, journal
    }

    @Test(
        "PlistFileStore and UserDefaultsStore set it aside as not a file, and a save writes a file again",
        arguments: PropertyListStoreKind.allCases)
    func propertyListStores(kind: PropertyListStoreKind) async throws {
        let folder = try TemporaryFolder()
        let (store, file) = try kind.store(in: folder.url)
        try makeFIFO(at: file)
        let error = await #expect(throws: StorageError.self) {
            try await within { try await store.load(PropertyListStoreKind.victim) }
        }
        guard case .damaged(let reported, let aside, .notAFile) = try #require(error) else {
            Issue.record("expected damaged(notAFile), got \(String(describing: error))")
            return
        }
        #expect(reported == file)
        #expect(entryType(at: aside) == .fifo, "the FIFO itself was set aside")
        #expect(entryType(at: file) == nil)
        #expect(try await within { try await store.load(PropertyListStoreKind.victim) } == nil)
        try await within { try await store.save("saved", for: PropertyListStoreKind.victim) }
        #expect(entryType(at: file) == .regular)
        #expect(try await within { try await store.load(PropertyListStoreKind.victim) } == "saved")
    }

    @Test(
        "JournaledStore sets it aside as not a file, and changes and folds go on",
        arguments: JournalFile.allCases)
    func journaledStore(at which: JournalFile) async throws {
        let folder = try TemporaryFolder()
        let store = JournaledStore<Shelf>(folder: folder.url, name: "shelf")
        try await store.replace(with: Shelf(["in the snapshot"]))
        let file = which == .snapshot ? store.snapshotURL : store.journalURL
        try FileManager.default.removeItem(at: file)
        try makeFIFO(at: file)
        let loaded = try await within {
            try await JournaledStore<Shelf>(folder: folder.url, name: "shelf").load()
        }
        #expect(loaded.value == (which == .snapshot ? Shelf() : Shelf(["in the snapshot"])))
        guard loaded.setAside.count == 1,
            case .damaged(let reported, let aside, .notAFile) = loaded.setAside[0]
        else {
            Issue.record("expected one damaged(notAFile), got \(loaded.setAside)")
            return
        }
        #expect(reported == file)
        #expect(entryType(at: aside) == .fifo, "the FIFO itself was set aside")
        try await within {
            try await store.append(.add("after"))
            try await store.fold()
        }
        #expect(entryType(at: file) == .regular)
        let reopened = try await within {
            try await JournaledStore<Shelf>(folder: folder.url, name: "shelf").load()
        }
        #expect(reopened.setAside.isEmpty)
        #expect(reopened.value.titles.last == "after")
    }
}
