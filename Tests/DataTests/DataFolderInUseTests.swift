import Data
import Domain
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Another holder of the data folder's lock (`flock` on the folder, as every store takes it)
/// past the store's wait: the todos are in use, not damaged. Nothing is set aside or changed,
/// and once the lock is let go everything reads as it was.
@Suite("The data folder in use by another holder of its lock")
struct DataFolderInUseTests {
    @Test(
        "a read and a change that wait past the timeout throw inUse, naming the folder; nothing is set aside")
    func lockHeldPastTheTimeout() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("DataFolderInUse-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await StoredTodoRepository(folder: folder).replace(with: [Todo(title: "buy milk")])
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let repository = StoredTodoRepository(folder: folder, lockTimeout: .milliseconds(200))

        // A lock of another open file description: flock makes it wait as another process's.
        let holder = open(folder.path, O_RDONLY | O_DIRECTORY)
        try #require(holder >= 0)
        try #require(flock(holder, LOCK_EX) == 0)
        let inUse = RepositoryError.inUse(location: folder.path, waited: .milliseconds(200))
        await #expect(throws: inUse) { try await repository.loadReadableTodos() }
        await #expect(throws: inUse) { try await repository.replace(with: []) }
        #expect(inUse.description.contains("another process kept \(folder.path) in use"))
        #expect(!inUse.description.contains("set aside") && !inUse.description.contains("unreadable"))
        close(holder)

        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
        let loaded = try await repository.loadReadableTodos()
        #expect(loaded.todos.map(\.title) == ["buy milk"] && loaded.skipped.isEmpty)
    }
}
