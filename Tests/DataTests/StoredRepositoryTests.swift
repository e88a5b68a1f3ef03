import Data
import Domain
import Foundation
import LocalProvider
import Testing

/// Real files in a fresh folder per test.
@Suite("Stored repositories on disk")
struct StoredRepositoryTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("DataTests-\(UUID().uuidString)", isDirectory: true)
    }

    @Test("todos and favourites survive reopening the store")
    func roundTrip() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let todos = [Todo(title: "milk"), Todo(title: "eggs", isDone: true)]
        try StoredTodoRepository(store: PlistFileStore(root: folder, durability: .durable)).saveTodos(todos)
        let photo = PetPhoto(
            id: "ebv", pet: .cat, url: try #require(URL(string: "https://cdn2.thecatapi.com/images/ebv.jpg")),
            breed: "Abyssinian", width: 176, height: 540)
        try StoredFavoritePhotoRepository(store: PlistFileStore(root: folder)).saveFavorites([photo])

        let reopened = try PlistFileStore(root: folder)
        #expect(try StoredTodoRepository(store: reopened).loadTodos() == todos)
        #expect(try StoredFavoritePhotoRepository(store: reopened).loadFavorites() == [photo])
    }

    @Test("a corrupt todos file is set aside and reported; the next save starts clean")
    func corruptFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try PlistFileStore(root: folder)
        let repository = StoredTodoRepository(store: store)
        try repository.saveTodos([Todo(title: "milk")])
        let file = store.fileURL(for: StorageKey<[Todo]>("todos"))
        try Data("not a plist".utf8).write(to: file)
        #expect {
            try repository.loadTodos()
        } throws: { error in
            guard case RepositoryError.unreadable(let reason) = error else { return false }
            return reason.hasPrefix("moved to ")
        }
        #expect(try repository.loadTodos().isEmpty)
        try repository.saveTodos([Todo(title: "eggs")])
        #expect(try repository.loadTodos().map(\.title) == ["eggs"])
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
