import Foundation
import LocalProvider
import Testing

/// A ``JournaledStore``'s snapshot or journal that is a symbolic link to a file outside the
/// folder: read through; a change folds, putting files of the folder's own in the links' place,
/// and never writes, cuts or sets aside the files they lead to (issue 32, item 1).
@Suite("Symbolic links in a JournaledStore's folder")
struct JournaledSymbolicLinkTests {
    let folder: TemporaryFolder
    /// Outside the store's folder: where the links lead.
    let dotfiles: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        dotfiles = try TemporaryFolder()
    }

    func store(in folder: TemporaryFolder) -> JournaledStore<Shelf> {
        JournaledStore(folder: folder.url, name: "shelf")
    }

    @Test("a link to a damaged snapshot elsewhere is set aside at once; the file it leads to is untouched")
    func linkToDamagedSnapshot() async throws {
        try await store(in: folder).append(.add("journaled"))
        let store = store(in: folder)
        let target = dotfiles.file("shelf.snapshot")
        let damaged = Data("not a snapshot".utf8)
        try damaged.write(to: target)
        try FileManager.default.createSymbolicLink(at: store.snapshotURL, withDestinationURL: target)
        let loaded = try await within { try await store.load() }
        #expect(loaded.setAside.count == 1)
        let error = try #require(loaded.setAside.first)
        let aside = try checkDamage(error, file: store.snapshotURL, damage: .randomBytes, copy: damaged)
        #expect(entryType(at: aside) == .symbolicLink, "the link itself was set aside")
        #expect(try destination(ofLink: aside) == target.path)
        #expect(try Data(contentsOf: target) == damaged, "the file the link leads to is as it was")
        #expect(loaded.value == Shelf(["journaled"]), "the journal's change is kept")
    }

    @Test(
        "a link to a journal elsewhere with a damaged line: the line is reported, the link kept aside, its file untouched"
    )
    func linkToDamagedJournal() async throws {
        let elsewhere = store(in: dotfiles)
        for title in ["a", "b", "c"] { try await elsewhere.append(.add(title)) }
        var lines = try String(contentsOf: elsewhere.journalURL, encoding: .utf8).split(separator: "\n")
        lines[1] = "not a change"
        let damaged = Data((lines.joined(separator: "\n") + "\n").utf8)
        try damaged.write(to: elsewhere.journalURL)
        let store = store(in: folder)
        try FileManager.default.createSymbolicLink(
            at: store.journalURL, withDestinationURL: elsewhere.journalURL)
        let loaded = try await within { try await store.load() }
        #expect(loaded.value == Shelf(["a", "c"]))
        guard case .damaged(_, let aside, .journalLines([2])) = try #require(loaded.setAside.first) else {
            Issue.record("expected damaged(journalLines([2])), got \(loaded.setAside)")
            return
        }
        #expect(entryType(at: aside) == .symbolicLink, "the link itself was kept aside")
        #expect(try destination(ofLink: aside) == elsewhere.journalURL.path)
        #expect(
            try Data(contentsOf: elsewhere.journalURL) == damaged, "the file the link leads to is as it was")
        #expect(
            entryType(at: store.journalURL) == .regular, "the fold put a journal of the folder's own there")
        let again = try await within { try await self.store(in: folder).load() }
        #expect(again.setAside.isEmpty)
        #expect(again.value == Shelf(["a", "c"]))
    }

    @Test("a journal that is a link to a folder elsewhere is set aside as the link; the folder stays")
    func journalLinkToFolder() async throws {
        let store = store(in: folder)
        let target = dotfiles.file("a folder")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(at: store.journalURL, withDestinationURL: target)
        let loaded = try await within { try await store.load() }
        guard loaded.setAside.count == 1,
            case .damaged(store.journalURL, let aside, .notAFile) = loaded.setAside[0]
        else {
            Issue.record("expected one damaged(notAFile), got \(loaded.setAside)")
            return
        }
        #expect(try destination(ofLink: aside) == target.path)
        #expect(entryType(at: target) == .directory)
        try await within { try await store.append(.add("after")) }
        #expect(try await within { try await self.store(in: folder).load() }.value == Shelf(["after"]))
    }

    @Test(
        "links to a snapshot and a journal elsewhere are read; a change puts files of the folder's own in their place"
    )
    func linksToValue() async throws {
        let elsewhere = store(in: dotfiles)
        try await elsewhere.replace(with: Shelf(["in the snapshot"]))
        try await elsewhere.append(.add("journaled"))
        let snapshot = try Data(contentsOf: elsewhere.snapshotURL)
        let journal = try Data(contentsOf: elsewhere.journalURL)
        let store = store(in: folder)
        try FileManager.default.createSymbolicLink(
            at: store.snapshotURL, withDestinationURL: elsewhere.snapshotURL)
        try FileManager.default.createSymbolicLink(
            at: store.journalURL, withDestinationURL: elsewhere.journalURL)
        let loaded = try await within { try await store.load() }
        #expect(loaded.value == Shelf(["in the snapshot", "journaled"]))
        #expect(loaded.setAside.isEmpty)
        try await within { try await store.append(.add("appended here")) }
        #expect(entryType(at: store.snapshotURL) == .regular)
        #expect(entryType(at: store.journalURL) == .regular)
        #expect(try Data(contentsOf: elsewhere.snapshotURL) == snapshot, "the linked snapshot is as it was")
        #expect(try Data(contentsOf: elsewhere.journalURL) == journal, "the linked journal is as it was")
        let reopened = try await within { try await self.store(in: folder).load() }
        #expect(reopened.value == Shelf(["in the snapshot", "journaled", "appended here"]))
        #expect(try await elsewhere.load().value == Shelf(["in the snapshot", "journaled"]))
    }

    @Test(
        "links that lead nowhere read as absent; a change writes files in their place and creates none where they led"
    )
    func danglingLinks() async throws {
        let store = store(in: folder)
        let nowhere = (snapshot: dotfiles.file("gone.snapshot"), journal: dotfiles.file("gone.journal"))
        try FileManager.default.createSymbolicLink(
            at: store.snapshotURL, withDestinationURL: nowhere.snapshot)
        try FileManager.default.createSymbolicLink(at: store.journalURL, withDestinationURL: nowhere.journal)
        let loaded = try await within { try await store.load() }
        #expect(loaded.value == Shelf())
        #expect(loaded.setAside.isEmpty)
        try await within { try await store.append(.add("first")) }
        #expect(entryType(at: store.journalURL) == .regular)
        #expect(try await within { try await self.store(in: folder).load() }.value == Shelf(["first"]))
        #expect(entryType(at: nowhere.snapshot) == nil && entryType(at: nowhere.journal) == nil)
    }
}
