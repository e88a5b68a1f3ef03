import Foundation
import LocalProvider
import Testing

/// A value's file, or a suite's, that is a symbolic link to a file outside the folder, as dotfile
/// managers make them: read through; what the store saves, removes or sets aside is the link,
/// never the file it leads to (issue 32, item 1).
@Suite("Symbolic links in a property-list store's folder")
struct SymbolicLinkTests {
    typealias Kind = PropertyListStoreKind
    let folder: TemporaryFolder
    /// Outside the store's folder: where the links lead.
    let dotfiles: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        dotfiles = try TemporaryFolder()
    }

    /// A store of `kind` in `folder` whose file is a link to the file (`target`) of a store of
    /// the same kind in `dotfiles`, which `populate` saved values in; `before` is what the target
    /// held then.
    func linked(_ kind: Kind, saving populate: (PropertyListStore) async throws -> Void) async throws -> (
        store: PropertyListStore, file: URL, elsewhere: PropertyListStore, target: URL, before: Data
    ) {
        let (elsewhere, target) = try kind.store(in: dotfiles.url)
        try await populate(elsewhere)
        let (store, file) = try kind.store(in: folder.url)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: target)
        return (store, file, elsewhere, target, try Data(contentsOf: target))
    }

    @Test(
        "a link to a damaged file elsewhere: the load reports it at once and sets the link aside; the file it leads to is untouched",
        arguments: Kind.allCases)
    func linkToDamagedFile(kind: Kind) async throws {
        let (store, file) = try kind.store(in: folder.url)
        let target = dotfiles.file(file.lastPathComponent)
        let damaged = Data("not a property list".utf8)
        try damaged.write(to: target)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: target)
        let error = await #expect(throws: StorageError.self) {
            try await within { try await store.load(Kind.victim) }
        }
        let aside = try checkDamage(try #require(error), file: file, damage: .randomBytes, copy: damaged)
        #expect(entryType(at: aside) == .symbolicLink, "the link itself was set aside")
        #expect(try destination(ofLink: aside) == target.path)
        #expect(entryType(at: file) == nil)
        #expect(try Data(contentsOf: target) == damaged, "the file the link leads to is as it was")
        #expect(try await within { try await store.load(Kind.victim) } == nil, "reported once; then absent")
    }

    @Test(
        "a link to one file of all keys with one damaged value: a copy of the link is kept, the rest is written here",
        arguments: [Kind.table, .defaults])
    func linkToTableWithDamagedValue(kind: Kind) async throws {
        let (store, file, _, target, before) = try await linked(kind) { elsewhere in
            try await elsewhere.save(42, for: StorageKey<Int>(Kind.victim.name))
            try await elsewhere.save("bystander", for: StorageKey<String>("bystander"))
        }
        let error = await #expect(throws: StorageError.self) {
            try await within { try await store.load(Kind.victim) }
        }
        let aside = try checkDamage(try #require(error), file: file, damage: .wrongType, copy: before)
        #expect(try destination(ofLink: aside) == target.path, "the copy is a second link to the same file")
        #expect(entryType(at: file) == .regular, "the rest was written to a file of the folder's own")
        #expect(try await within { try await store.load(StorageKey<String>("bystander")) } == "bystander")
        #expect(try Data(contentsOf: target) == before, "the file the link leads to is as it was")
    }

    @Test("a link to a folder elsewhere is set aside as the link; the folder stays", arguments: Kind.allCases)
    func linkToFolder(kind: Kind) async throws {
        let (store, file) = try kind.store(in: folder.url)
        let target = dotfiles.file("a folder")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: target)
        let error = await #expect(throws: StorageError.self) {
            try await within { try await store.load(Kind.victim) }
        }
        guard case .damaged(file, let aside, .notAFile) = try #require(error) else {
            Issue.record("expected damaged(notAFile), got \(String(describing: error))")
            return
        }
        #expect(try destination(ofLink: aside) == target.path)
        #expect(entryType(at: target) == .directory)
        #expect(try await within { try await store.load(Kind.victim) } == nil)
    }

    @Test(
        "a link to a value elsewhere reads the value; a save puts a file of the folder's own in its place",
        arguments: Kind.allCases)
    func linkToValue(kind: Kind) async throws {
        let (store, file, elsewhere, target, before) = try await linked(kind) {
            try await $0.save("kept elsewhere", for: Kind.victim)
        }
        #expect(try await within { try await store.load(Kind.victim) } == "kept elsewhere")
        try await within { try await store.save("saved here", for: Kind.victim) }
        #expect(entryType(at: file) == .regular)
        #expect(try await within { try await store.load(Kind.victim) } == "saved here")
        #expect(try Data(contentsOf: target) == before, "the file the link leads to is as it was")
        #expect(try await elsewhere.load(Kind.victim) == "kept elsewhere")
    }

    @Test("a removal through a link leaves the file it leads to as it was", arguments: Kind.allCases)
    func removeThroughLink(kind: Kind) async throws {
        let (store, file, _, target, before) = try await linked(kind) {
            try await $0.save("kept elsewhere", for: Kind.victim)
        }
        try await within { try await store.remove(Kind.victim) }
        #expect(try await within { try await store.load(Kind.victim) } == nil)
        #expect(entryType(at: file) != .symbolicLink)
        #expect(try Data(contentsOf: target) == before)
    }

    @Test(
        "a link that leads nowhere reads as absent; a save puts a file in its place and creates none where it led",
        arguments: Kind.allCases)
    func danglingLink(kind: Kind) async throws {
        let (store, file) = try kind.store(in: folder.url)
        let nowhere = dotfiles.file("gone.plist")
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: nowhere)
        #expect(try await within { try await store.load(Kind.victim) } == nil)
        try await within { try await store.save("saved here", for: Kind.victim) }
        #expect(entryType(at: file) == .regular)
        #expect(try await within { try await store.load(Kind.victim) } == "saved here")
        #expect(entryType(at: nowhere) == nil)
        #expect(folder.setAsideCopies(of: file.lastPathComponent).isEmpty)
    }
}
