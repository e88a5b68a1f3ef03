import Foundation
import LocalProvider
import Testing

/// What a test does to a stored file.
enum Damage: String, CaseIterable, Sendable {
    case truncated, randomBytes, empty, wrongType, futureVersion, misalignedColumns, directory

    /// Damage done to the file's bytes, whatever wrote them.
    static let toBytes: [Damage] = [.truncated, .randomBytes, .empty, .directory]

    /// Applies a byte-level damage to `file`, and returns what a set-aside copy must hold: the
    /// damaged bytes, or `nil` for a folder.
    func apply(to file: URL) throws -> Data? {
        let bytes = try Data(contentsOf: file)
        let damaged: Data
        switch self {
        case .truncated: damaged = bytes.prefix(bytes.count / 2)
        case .randomBytes: damaged = Data((0..<512).map { _ in UInt8.random(in: 0...255) })
        case .empty: damaged = Data()
        case .directory:
            try FileManager.default.removeItem(at: file)
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
            try Data("inside".utf8).write(to: file.appendingPathComponent("inside.txt"))
            return nil
        default: preconditionFailure("\(self) is written through a store")
        }
        try damaged.write(to: file)
        return damaged
    }

    /// Damages the value "victim" in `file`: the bytes, or a value of another type or a future
    /// schema version saved through `store`. Returns what a set-aside copy must hold.
    func apply(to file: URL, through store: PropertyListStore) throws -> Data? {
        switch self {
        case .wrongType: try store.save(42, for: StorageKey<Int>("victim"))
        case .futureVersion: try store.save("from the future", for: StorageKey<String>("victim", version: 9))
        default: return try apply(to: file)
        }
        return try Data(contentsOf: file)
    }

    /// Whether `reason` is what this damage must be reported as.
    func matches(_ reason: DamageReason) -> Bool {
        switch (self, reason) {
        case (.truncated, .unreadableBytes), (.randomBytes, .unreadableBytes), (.empty, .unreadableBytes),
            (.wrongType, .wrongType), (.futureVersion, .unknownVersion(_, stored: 9, expected: 1)),
            (.misalignedColumns, .inconsistentSnapshot), (.directory, .notAFile):
            true
        default: false
        }
    }
}

/// The damage reported, checked against what was done; returns the set-aside copy.
func checkDamage(_ error: StorageError, file: URL, damage: Damage, copy expected: Data?) throws -> URL {
    guard case .damaged(let reported, let aside, let reason) = error else {
        Issue.record("expected damaged, got \(error)")
        return file
    }
    #expect(reported == file)
    #expect(damage.matches(reason), "\(damage) reported as \(reason)")
    #expect(error.description.contains(file.path) && error.description.contains(aside.path))
    #expect(aside.deletingLastPathComponent() == file.deletingLastPathComponent())
    #expect(aside.lastPathComponent.hasPrefix("\(file.lastPathComponent).damaged-"))
    if let expected {
        #expect(try Data(contentsOf: aside) == expected, "the set-aside copy holds the file as it was")
    } else {
        #expect(FileManager.default.fileExists(atPath: aside.appendingPathComponent("inside.txt").path))
    }
    return aside
}

@Suite("Damaged files, store by store")
struct DamagedFileTests {
    @Test("PlistFileStore, one file per key", arguments: Damage.allCases.filter { $0 != .misalignedColumns })
    func filePerKey(damage: Damage) throws {
        let folder = try TemporaryFolder()
        let store = try PlistFileStore(root: folder.url)
        let victim = StorageKey<String>("victim")
        try store.save("victim value", for: victim)
        try store.save("bystander", for: StorageKey<String>("bystander"))
        let file = store.fileURL(for: victim)
        let copy = try damage.apply(to: file, through: store)
        let error = try #require(throws: StorageError.self) { try store.load(victim) }
        let aside = try checkDamage(error, file: file, damage: damage, copy: copy)
        #expect(try store.load(StorageKey<String>("bystander")) == "bystander")
        #expect(try store.load(victim) == nil, "reported once; then absent")
        try store.save("new", for: victim)
        #expect(try PlistFileStore(root: folder.url).load(victim) == "new")
        if let copy { #expect(try Data(contentsOf: aside) == copy, "a new save does not touch the copy") }
    }

    @Test(
        "PlistFileStore, one file for all, and a UserDefaults suite",
        arguments: [false, true], Damage.allCases.filter { $0 != .misalignedColumns })
    func singleFile(userDefaults: Bool, damage: Damage) throws {
        let folder = try TemporaryFolder()
        let store: PropertyListStore
        let file: URL
        if userDefaults {
            let defaults = try UserDefaultsStore(
                suiteName: "Damaged", environment: ["XDG_CONFIG_HOME": folder.url.path])
            (store, file) = (defaults, defaults.fileURL)
        } else {
            let table = try PlistFileStore(root: folder.url, layout: .singleFile(name: "table"))
            (store, file) = (table, table.fileURL(for: StorageKey<String>("any")))
        }
        let victim = StorageKey<String>("victim")
        try store.save("victim value", for: victim)
        try store.save("bystander", for: StorageKey<String>("bystander"))
        let copy = try damage.apply(to: file, through: store)
        let error = try #require(throws: StorageError.self) { try store.load(victim) }
        let aside = try checkDamage(error, file: file, damage: damage, copy: copy)
        let wholeFileDamaged = Damage.toBytes.contains(damage)
        // A damaged entry is removed from the file and the rest stays; a file damaged as a whole
        // is moved aside whole, and what it held is in the copy.
        #expect(try store.load(StorageKey<String>("bystander")) == (wholeFileDamaged ? nil : "bystander"))
        #expect(try store.load(victim) == nil, "reported once; then absent")
        try store.save("new", for: victim)
        #expect(try store.load(victim) == "new")
        if let copy { #expect(try Data(contentsOf: aside) == copy, "a new save does not touch the copy") }
    }

    @Test("JournaledStore's snapshot", arguments: Damage.allCases)
    func journalSnapshot(damage: Damage) throws {
        let folder = try TemporaryFolder()
        let store = JournaledStore<Shelf>(folder: folder.url, name: "shelf")
        try store.replace(with: Shelf(["in the snapshot"]))
        try store.append(.add("journaled after"))
        let file = store.snapshotURL
        // A snapshot of something else, written by a store in another folder and copied here.
        func foreignSnapshot(_ write: (URL) throws -> Void) throws -> Data {
            let other = try TemporaryFolder()
            try write(other.url)
            try FileManager.default.removeItem(at: file)
            try FileManager.default.copyItem(at: other.file("shelf.snapshot"), to: file)
            return try Data(contentsOf: file)
        }
        let copy: Data?
        switch damage {
        case .wrongType:
            copy = try foreignSnapshot {
                try JournaledStore<Ledger>(folder: $0, name: "shelf").replace(with: Ledger())
            }
        case .futureVersion:
            copy = try foreignSnapshot {
                try JournaledStore<Shelf>(folder: $0, name: "shelf", snapshotVersion: 9).replace(
                    with: Shelf(["future"]))
            }
        case .misalignedColumns:
            copy = try foreignSnapshot {
                try JournaledStore<MisalignedShelf>(folder: $0, name: "shelf").replace(
                    with: MisalignedShelf())
            }
        default:
            copy = try damage.apply(to: file)
        }
        let reopened = JournaledStore<Shelf>(folder: folder.url, name: "shelf")
        let loaded = try reopened.load()
        let error = try #require(loaded.setAside.first)
        #expect(loaded.setAside.count == 1)
        _ = try checkDamage(error, file: file, damage: damage, copy: copy)
        #expect(loaded.value.titles == ["journaled after"], "the journal's change is kept")
        // Loading again reads what is left, without damage; changes and folds go on.
        try reopened.append(.add("new"))
        try reopened.fold()
        let again = try JournaledStore<Shelf>(folder: folder.url, name: "shelf").load()
        #expect(again.setAside.isEmpty)
        #expect(again.value.titles.last == "new")
    }
}

@Suite("Files the process may not read")
struct UnreadableFileTests {
    enum Kind: String, CaseIterable, Sendable {
        case plist, table, defaults, journal
    }

    /// Stores a victim and a bystander value of `kind` under `folder`; returns the store's
    /// folder, the file that holds the victim, and the key `describe` reads them by.
    func populate(_ kind: Kind, in folder: TemporaryFolder) async throws -> (
        root: URL, file: URL, key: String
    ) {
        let root = folder.url.appendingPathComponent("store", isDirectory: true)
        switch kind {
        case .plist:
            let store = try PlistFileStore(root: root)
            try await store.save("victim", for: StorageKey<String>("victim"))
            try await store.save("bystander", for: StorageKey<String>("bystander"))
            return (root, store.fileURL(for: StorageKey<String>("victim")), "victim")
        case .table:
            let store = try PlistFileStore(root: root, layout: .singleFile(name: "table"))
            try await store.save("victim", for: StorageKey<String>("victim"))
            return (root, store.fileURL(for: StorageKey<String>("victim")), "victim")
        case .defaults:
            let store = try UserDefaultsStore(suiteName: "Suite", environment: ["XDG_CONFIG_HOME": root.path])
            try await store.save("victim", for: StorageKey<String>("value"))
            return (root, store.fileURL, "Suite")
        case .journal:
            try await runProbe(["journal-appender", root.path, "0", "3", "256"])
            return (root, root.appendingPathComponent("numbers.journal"), "numbers")
        }
    }

    @Test(
        "a file that cannot be read, or a folder that cannot be entered, is a typed error; nothing is set aside",
        arguments: Kind.allCases, [false, true])
    func unreadable(kind: Kind, wholeFolder: Bool) async throws {
        let folder = try TemporaryFolder()
        let (root, file, key) = try await populate(kind, in: folder)
        // The probe drops root's rights to `nobody` (65534); the files become nobody's, so that
        // only the mode taken away below stops it.
        if geteuid() == 0 { try giveTree(folder.url, to: 65_534) }
        let before = try await runProbe(["describe", kind.rawValue, root.path, key])
        #expect(before.hasPrefix("value "))
        chmod(wholeFolder ? root.path : file.path, 0)
        #expect(
            try await runProbe(["describe", kind.rawValue, root.path, key]) == "error fileSystem \(EACCES)")
        if kind == .plist && !wholeFolder {
            #expect(try await runProbe(["describe", "plist", root.path, "bystander"]) == "value bystander")
        }
        chmod(wholeFolder ? root.path : file.path, wholeFolder ? 0o700 : 0o600)
        #expect(
            try await runProbe(["describe", kind.rawValue, root.path, key]) == before, "nothing was lost")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: root.path).allSatisfy {
                !$0.contains(".damaged-")
            })
    }

    private func giveTree(_ url: URL, to owner: uid_t) throws {
        guard chown(url.path, owner, owner) == 0 else { throw CocoaError(.fileWriteNoPermission) }
        for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
            let child = url.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: child.path, isDirectory: &isDirectory),
                isDirectory.boolValue
            {
                try giveTree(child, to: owner)
            } else if chown(child.path, owner, owner) != 0 {
                throw CocoaError(.fileWriteNoPermission)
            }
        }
    }
}
