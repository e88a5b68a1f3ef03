import Data
import Domain
import Foundation
import LocalProvider
import Testing

/// Real files in a fresh folder per test.
@MainActor
@Suite("Stored repositories on disk")
struct StoredRepositoryTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("DataTests-\(UUID().uuidString)", isDirectory: true)
    }

    var journalURL: URL { folder.appendingPathComponent("todos.journal") }

    func todoRepository(threshold: Int = 256) throws -> StoredTodoRepository {
        StoredTodoRepository(
            store: try PlistFileStore(root: folder, durability: .durable), journal: journalURL,
            compactionThreshold: threshold)
    }

    @Test("each change is a journal line; a new instance replays them over the snapshot")
    func journalRoundTrip() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = TodoBook(repository: try todoRepository())
        let milk = try book.add(title: "milk")
        try book.add(title: "eggs")
        try book.toggle(milk.id)
        try book.rename(milk.id, to: "oat milk")
        #expect(try String(contentsOf: journalURL, encoding: .utf8).split(separator: "\n").count == 4)
        #expect(try todoRepository().loadTodos() == book.list.todos)
        try book.clearCompleted()
        #expect(try todoRepository().loadTodos().map(\.title) == ["eggs"])
    }

    @Test("the snapshot keeps every field, wide and combining characters included")
    func snapshotFields() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let todos = [
            Todo(title: "한국어 제목", isDone: true, createdAt: Date(timeIntervalSinceReferenceDate: 12.345)),
            Todo(title: "e\u{301}mile 🐕", createdAt: Date(timeIntervalSinceReferenceDate: -1)),
            Todo(title: "x"),
        ]
        try todoRepository().compact(todos)
        #expect(try todoRepository().loadTodos() == todos)
    }

    @Test("todos stored by the first version (one dictionary each) are migrated once, on first load")
    func migratesVersionOne() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try PlistFileStore(root: folder)
        let old = [Todo(title: "from v1"), Todo(title: "done in v1", isDone: true)]
        try store.save(old, for: StorageKey<[Todo]>("todos"))
        #expect(try todoRepository().loadTodos() == old)
        #expect(throws: StorageError.self) { try store.load(StorageKey<[Todo]>("todos")) }
        #expect(try todoRepository().loadTodos() == old)
    }

    @Test("after the threshold the list is written whole and the journal starts again")
    func compaction() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = TodoBook(repository: try todoRepository(threshold: 3))
        for title in ["a", "b", "c", "d"] { try book.add(title: title) }
        let lines = try String(contentsOf: journalURL, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1, "three changes went into the snapshot; the fourth is journaled")
        #expect(try todoRepository().loadTodos().map(\.title) == ["a", "b", "c", "d"])
    }

    @Test("a torn last line is ignored; changes the snapshot already holds replay without doubling")
    func crashes() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let repository = try todoRepository()
        let book = TodoBook(repository: repository)
        let milk = try book.add(title: "milk")
        try book.add(title: "eggs")
        // A crash after the snapshot was written but before the journal was removed.
        try PlistFileStore(root: folder).save(book.list.todos, for: StorageKey<[Todo]>("todos"))
        // And a crash in the middle of appending the next change.
        let handle = try FileHandle(forWritingTo: journalURL)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"deleted":{"_0":["#.utf8))
        try handle.close()
        let reloaded = try todoRepository().loadTodos()
        #expect(reloaded.map(\.title) == ["milk", "eggs"])
        #expect(reloaded.first?.id == milk.id)
    }

    @Test("a corrupt journal line is set aside and reported; the snapshot still loads")
    func corruptJournal() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let repository = try todoRepository()
        try repository.compact([Todo(title: "kept")])
        try Data("not a change\n".utf8).write(to: journalURL)
        #expect {
            try repository.loadTodos()
        } throws: { error in
            guard case RepositoryError.unreadable(let reason) = error else { return false }
            return reason.contains("line 1 is not a change")
        }
        #expect(!FileManager.default.fileExists(atPath: journalURL.path))
        #expect(try repository.loadTodos().map(\.title) == ["kept"])
    }

    @Test("a corrupt snapshot is set aside and reported; the next save starts clean")
    func corruptSnapshot() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try PlistFileStore(root: folder)
        let repository = StoredTodoRepository(store: store, journal: journalURL)
        try repository.compact([Todo(title: "milk")])
        try Data("not a plist".utf8).write(to: store.fileURL(for: StorageKey<[Todo]>("todos")))
        #expect {
            try repository.loadTodos()
        } throws: { error in
            guard case RepositoryError.unreadable(let reason) = error else { return false }
            return reason.hasPrefix("moved to ")
        }
        #expect(try repository.loadTodos().isEmpty)
        try repository.compact([Todo(title: "eggs")])
        #expect(try repository.loadTodos().map(\.title) == ["eggs"])
    }

    @Test("favourites survive reopening the store")
    func favourites() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = PetPhoto(
            id: "ebv", pet: .cat, url: try #require(URL(string: "https://cdn2.thecatapi.com/images/ebv.jpg")),
            breed: "Abyssinian", width: 176, height: 540)
        try StoredFavoritePhotoRepository(store: PlistFileStore(root: folder)).saveFavorites([photo])
        #expect(
            try StoredFavoritePhotoRepository(store: PlistFileStore(root: folder)).loadFavorites() == [photo])
    }

    @Test("the profile lives in a UserDefaults suite file")
    func profile() throws {
        let suite = "DataTests-\(UUID().uuidString.prefix(8))"
        let repository = StoredProfileRepository(store: try UserDefaultsStore(suiteName: suite))
        #expect(try repository.loadProfile() == Profile())
        try repository.saveProfile(Profile(name: "Ada", bio: "dogs > cats"))
        let reopened = StoredProfileRepository(store: try UserDefaultsStore(suiteName: suite))
        #expect(try reopened.loadProfile() == Profile(name: "Ada", bio: "dogs > cats"))
        let file = StorageLocation.configDirectory().appendingPathComponent("\(suite).plist")
        #expect(FileManager.default.fileExists(atPath: file.path))
        try? FileManager.default.removeItem(at: file)
    }
}
