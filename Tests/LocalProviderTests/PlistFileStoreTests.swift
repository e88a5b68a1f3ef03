import Foundation
import LocalProvider
import Testing

@Suite("PlistFileStore")
struct PlistFileStoreTests {
    static let todos = StorageKey<[Todo]>("todos")

    @Test(
        "round-trips values in every layout and format",
        arguments: [
            (PlistFileStore.Layout.filePerKey, PropertyListSerialization.PropertyListFormat.xml),
            (.filePerKey, .binary),
            (.singleFile(name: "store"), .xml),
            (.singleFile(name: "store"), .binary),
        ])
    func roundTrip(layout: PlistFileStore.Layout, format: PropertyListSerialization.PropertyListFormat) throws
    {
        let folder = try TemporaryFolder()
        let store = try PlistFileStore(root: folder.url, layout: layout, format: format)
        let todos = [Todo(id: 1, title: "Walk the dog"), Todo(id: 2, title: "고양이 밥 주기", isDone: true)]
        try store.save(todos, for: Self.todos)
        try store.save(42, for: StorageKey<Int>("answer"))  // a scalar, which a bare plist cannot hold
        try store.save("Rex", for: StorageKey<String>("name"))

        let reopened = try PlistFileStore(root: folder.url, layout: layout, format: format)
        #expect(try reopened.load(Self.todos) == todos)
        #expect(try reopened.load(StorageKey<Int>("answer")) == 42)
        #expect(try reopened.load(StorageKey<String>("name")) == "Rex")
        #expect(try reopened.load(StorageKey<String>("missing")) == nil)

        try reopened.remove(StorageKey<String>("name"))
        try reopened.remove(StorageKey<String>("never-there"))
        #expect(try store.load(StorageKey<String>("name")) == nil)
        #expect(try store.load(StorageKey<Int>("answer")) == 42)
    }

    @Test("writes one file per key as a readable XML property list")
    func fileFormat() throws {
        let folder = try TemporaryFolder()
        let store = try PlistFileStore(root: folder.url)
        try store.save("Rex", for: StorageKey<String>("name"))
        #expect(folder.fileNames == ["name.plist"], "no temporary file is left behind")
        let text = try String(contentsOf: folder.file("name.plist"), encoding: .utf8)
        #expect(text.contains("<string>Rex</string>"))
        #expect(text.contains("<key>version</key>"))
    }

    @Test("creates files 0600 and folders 0700")
    func permissionBits() throws {
        let folder = try TemporaryFolder()
        let root = folder.url.appendingPathComponent("TodoApp-Dog/nested", isDirectory: true)
        let store = try PlistFileStore(root: root)
        try store.save(1, for: StorageKey<Int>("one"))
        #expect(try permissions(of: root) == 0o700)
        #expect(try permissions(of: root.deletingLastPathComponent()) == 0o700)
        #expect(try permissions(of: root.appendingPathComponent("one.plist")) == 0o600)
    }

    @Test("sets a corrupt file aside under a name of its own, names it in the error, then reads as absent")
    func setsCorruptFileAside() throws {
        let folder = try TemporaryFolder()
        let store = try PlistFileStore(root: folder.url)
        let garbage = Data("<?xml version=\"1.0\"?><plist><dict><key>vers".utf8)
        try garbage.write(to: folder.file("todos.plist"))

        let error = try #require(throws: StorageError.self) { try store.load(Self.todos) }
        guard case .damaged(let file, let aside, .unreadableBytes) = error else {
            Issue.record("expected damaged(unreadableBytes), got \(error)")
            return
        }
        #expect(file.lastPathComponent == "todos.plist")
        #expect(error.description.contains("todos.plist") && error.description.contains(aside.path))
        #expect(try Data(contentsOf: aside) == garbage, "the corrupt bytes are kept, not lost")
        #expect(try store.load(Self.todos) == nil)

        // A second corruption in the same second gets a new name; the first copy is kept.
        try Data("second".utf8).write(to: folder.file("todos.plist"))
        let second = try #require(throws: StorageError.self) { try store.load(Self.todos) }
        guard case .damaged(_, let secondAside, _) = second else { return }
        #expect(secondAside != aside)
        #expect(try Data(contentsOf: aside) == garbage)
        #expect(try Data(contentsOf: secondAside) == Data("second".utf8))

        // The store writes fine afterwards.
        try store.save([Todo(id: 3, title: "again")], for: Self.todos)
        #expect(try store.load(Self.todos)?.count == 1)
    }

    @Test("a value of another type is set aside, so that the next save cannot write over it")
    func typeMismatch() throws {
        let folder = try TemporaryFolder()
        let store = try PlistFileStore(root: folder.url)
        try store.save("not a list", for: StorageKey<String>("todos"))
        let before = try Data(contentsOf: folder.file("todos.plist"))
        let error = try #require(throws: StorageError.self) { try store.load(Self.todos) }
        guard case .damaged(_, let aside, .wrongType(key: "todos", _)) = error else {
            Issue.record("expected damaged(wrongType), got \(error)")
            return
        }
        try store.save([Todo(id: 1, title: "new")], for: Self.todos)
        #expect(try Data(contentsOf: aside) == before)
    }

    @Test("honours expiry on read and drops the expired file")
    func expiry() throws {
        let folder = try TemporaryFolder()
        let clock = ManualClock()
        let store = try PlistFileStore(root: folder.url, clock: clock.function)
        try store.save("old", for: StorageKey<String>("stale"), expiry: .seconds(10))
        try store.save("fresh", for: StorageKey<String>("fresh"), expiry: .seconds(3_600))
        clock.advance(by: 11)
        #expect(try store.load(StorageKey<String>("stale")) == nil)
        #expect(!folder.fileNames.contains("stale.plist"))
        #expect(try store.load(StorageKey<String>("fresh")) == "fresh")
        let entry = try store.entry(for: StorageKey<String>("fresh"))
        #expect(entry?.expiresAt == clock.now.addingTimeInterval(3_589))
    }

    @Test("migrates a value stored with an older schema version")
    func migration() throws {
        let folder = try TemporaryFolder()
        let store = try PlistFileStore(root: folder.url)
        try store.save(["Walk the dog", "Feed the cat"], for: StorageKey<[String]>("todos", version: 1))

        let migrated = StorageKey<[Todo]>("todos", version: 2) { storedVersion, data in
            #expect(storedVersion == 1)
            let titles = try PropertyListDecoder().decode([String].self, from: data)
            return titles.enumerated().map { Todo(id: $0.offset, title: $0.element) }
        }
        #expect(try store.load(migrated)?.map(\.title) == ["Walk the dog", "Feed the cat"])

        let noMigration = StorageKey<[Todo]>("todos", version: 2)
        let error = try #require(throws: StorageError.self) { try store.load(noMigration) }
        guard case .damaged(_, let aside, .unknownVersion(let key, let stored, let expected)) = error else {
            Issue.record("expected damaged(unknownVersion), got \(error)")
            return
        }
        #expect((key, stored, expected) == ("todos", 1, 2))

        struct Refused: Error {}
        try FileManager.default.moveItem(at: aside, to: folder.file("todos.plist"))
        let failing = StorageKey<[Todo]>("todos", version: 2) { _, _ in throw Refused() }
        let failed = try #require(throws: StorageError.self) { try store.load(failing) }
        guard case .damaged(_, _, .migrationFailed(key: "todos", from: 1, underlying: is Refused)) = failed
        else {
            Issue.record("expected damaged(migrationFailed), got \(failed)")
            return
        }
    }

    @Test("100 concurrent writers on one key leave one whole value and no stray files")
    func concurrentWriters() async throws {
        let folder = try TemporaryFolder()
        let store = try PlistFileStore(root: folder.url)
        let key = StorageKey<[Todo]>("shared")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<100 {
                group.addTask {
                    let todos = (0..<50).map { Todo(id: writer * 1_000 + $0, title: "writer \(writer)") }
                    try await store.save(todos, for: key)
                }
            }
            try await group.waitForAll()
        }
        let stored = try #require(try await store.load(key))
        #expect(stored.count == 50)
        #expect(Set(stored.map(\.title)).count == 1, "one writer's complete value, not a mix")
        #expect(folder.fileNames == ["shared.plist"])
    }

    @Test("a change stream gives the current value, then each change")
    func changes() async throws {
        let folder = try TemporaryFolder()
        let store = try PlistFileStore(root: folder.url)
        let key = StorageKey<String>("name")
        try await store.save("Rex", for: key)
        var changes = store.changes(for: key).makeAsyncIterator()
        try await store.save("Tom", for: key)
        try await store.remove(key)
        #expect(await changes.next() == "Rex")
        #expect(await changes.next() == "Tom")
        #expect(await changes.next() == .some(nil))
    }

    @Test("a namespaced store lives in the XDG data folder")
    func namespacedStore() throws {
        let folder = try TemporaryFolder()
        let store = try PlistFileStore(
            namespace: "TodoApp-Dog", environment: ["XDG_DATA_HOME": folder.url.path])
        try store.save("woof", for: StorageKey<String>("bark"))
        #expect(store.root.path == folder.url.appendingPathComponent("TodoApp-Dog").path)
        #expect(
            FileManager.default.fileExists(
                atPath: folder.url.appendingPathComponent("TodoApp-Dog/bark.plist").path))
        #expect(throws: StorageError.self) { try PlistFileStore(namespace: "../up", environment: [:]) }
    }

    @Test("defaults to an XDG data folder per namespace")
    func location() {
        let custom = StorageLocation.dataDirectory(
            namespace: "TodoApp-Dog", environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/me"])
        #expect(custom.path == "/data/TodoApp-Dog")
        let fallback = StorageLocation.dataDirectory(
            namespace: "TodoApp-Cat", environment: ["HOME": "/home/me"])
        #expect(fallback.path == "/home/me/.local/share/TodoApp-Cat")
    }
}
