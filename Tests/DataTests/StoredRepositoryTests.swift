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

    func todoRepository(threshold: Int = 256) -> StoredTodoRepository {
        StoredTodoRepository(folder: folder, foldThreshold: threshold)
    }

    func journalLines() throws -> [Substring] {
        try String(contentsOf: todoRepository().journalURL, encoding: .utf8).split(separator: "\n")
    }

    @Test("each change is a journal line; a new instance replays them over the snapshot")
    func journalRoundTrip() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var todos = await RecordedTodos(todoRepository())
        let milk = try await todos.add("milk")
        try await todos.add("eggs")
        try await todos.record(todos.list.toggling(milk.id))
        try await todos.record(todos.list.renaming(milk.id, to: "oat milk"))
        #expect(try journalLines().count == 4)
        #expect(try await todoRepository().loadTodos() == todos.list.todos)
        try await todos.record(try #require(todos.list.clearingCompleted()))
        #expect(try await todoRepository().loadTodos().map(\.title) == ["eggs"])
    }

    @Test("the snapshot keeps every field, wide and combining characters included")
    func snapshotFields() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let todos = [
            Todo(title: "한국어 제목", isDone: true, createdAt: Date(timeIntervalSinceReferenceDate: 12.345)),
            Todo(title: "e\u{301}mile 🐕", createdAt: Date(timeIntervalSinceReferenceDate: -1)),
            Todo(title: "x"),
        ]
        try await todoRepository().replace(with: todos)
        #expect(try await todoRepository().loadTodos() == todos)
    }

    @Test("todos kept by the first releases (todos.plist and todos.journal) move into the store once")
    func importsLegacyFiles() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = [Todo(title: "from v1"), Todo(title: "done in v1", isDone: true)]
        try await PlistFileStore(root: folder, format: .binary).save(old, for: StorageKey<[Todo]>("todos"))
        let added = Todo(title: "journaled in v2")
        var journal = try JSONEncoder().encode(TodoChange.added(added))
        journal.append(contentsOf: Data("\n{\"upd".utf8))  // and a torn last line
        try journal.write(to: folder.appendingPathComponent("todos.journal"))

        #expect(try await todoRepository().loadTodos() == old + [added])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("todos.plist").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("todos.journal").path))
        #expect(try await todoRepository().loadTodos() == old + [added])
    }

    @Test("after the threshold the list is written whole and the journal starts again")
    func compaction() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var todos = await RecordedTodos(todoRepository(threshold: 3))
        for title in ["a", "b", "c", "d"] { try await todos.add(title) }
        #expect(
            try journalLines().count == 1, "three changes went into the snapshot; the fourth is journaled")
        #expect(try await todoRepository().loadTodos().map(\.title) == ["a", "b", "c", "d"])
    }

    @Test("favourites survive reopening the store")
    func favourites() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = PetPhoto(
            id: "ebv", pet: .cat, url: try #require(URL(string: "https://cdn2.thecatapi.com/images/ebv.jpg")),
            breed: "Abyssinian", width: 176, height: 540)
        try await StoredFavoritePhotoRepository(store: PlistFileStore(root: folder)).saveFavorites([photo])
        #expect(
            try await StoredFavoritePhotoRepository(store: PlistFileStore(root: folder)).loadFavorites() == [
                photo
            ])
    }

    @Test("the tab and the filter updated at once, as Root's and Todo's reactors may, are both kept")
    func concurrentPreferenceUpdates() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let repository = StoredScreenPreferencesRepository(store: try PlistFileStore(root: folder))
        for round in 0..<30 {
            let tab = "tab \(round)"
            let filter: TodoFilter = round.isMultiple(of: 2) ? .active : .done
            async let tabKept: Void = repository.updatePreferences { $0.tab = tab }
            async let filterKept: Void = repository.updatePreferences { $0.filter = filter }
            _ = try await (tabKept, filterKept)
            let kept = try await repository.loadPreferences()
            #expect(kept.tab == tab && kept.filter == filter, "round \(round): \(kept)")
        }
    }

    @Test("the profile lives in a UserDefaults suite file")
    func profile() async throws {
        let suite = "DataTests-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_CONFIG_HOME": folder.path]
        let repository = StoredProfileRepository(
            store: try UserDefaultsStore(suiteName: suite, environment: environment))
        #expect(try await repository.loadProfile() == Profile())
        try await repository.saveProfile(Profile(name: "Ada", bio: "dogs > cats"))
        let reopened = StoredProfileRepository(
            store: try UserDefaultsStore(suiteName: suite, environment: environment))
        #expect(try await reopened.loadProfile() == Profile(name: "Ada", bio: "dogs > cats"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(suite).plist").path))
    }
}
