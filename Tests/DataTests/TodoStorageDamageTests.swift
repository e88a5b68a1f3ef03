import Data
import Domain
import Foundation
import LocalProvider
import Testing

/// The todo repository with damaged and cut-short files: nothing acknowledged is lost, nothing
/// readable is destroyed, and what is damaged is set aside and reported.
@MainActor
@Suite("Stored todos with damaged files")
struct TodoStorageDamageTests {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("DataDamage-\(UUID().uuidString)", isDirectory: true)

    func repository(threshold: Int = 256) -> StoredTodoRepository {
        StoredTodoRepository(folder: folder, foldThreshold: threshold)
    }

    /// The titles a fresh start shows, after the damage was reported once.
    func titlesAfterRestart() async throws -> [String] {
        let todos = await RecordedTodos(repository())
        #expect(todos.loadError == nil, "damage is reported once, then set aside")
        return todos.list.todos.map(\.title)
    }

    func setAsideCopies() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".damaged-") }
    }

    @Test("a journal line that cannot be read is never followed by a fold over the readable todos (item 1)")
    func failedLoadThenFold() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await repository().replace(with: [Todo(title: "kept")])
        try Data("not a change\n".utf8).write(to: repository().journalURL)
        var todos = await RecordedTodos(repository(threshold: 2))
        guard case .unreadable(let reason) = try #require(todos.loadError) else { return }
        #expect(reason.contains("todo-list.journal") && reason.contains(".damaged-"))
        #expect(todos.list.todos.map(\.title) == ["kept"], "what is readable is shown at once")
        try await todos.add("a")
        try await todos.add("b")  // folds
        #expect(try await titlesAfterRestart() == ["kept", "a", "b"])
        #expect(try setAsideCopies().count == 1)
    }

    /// One todo journaled over a snapshot of bytes that are not a property list, and a journal
    /// line after it that is not a change: two parts damaged in different ways.
    func damageSnapshotAndJournal() async throws {
        try await repository().record(.added(Todo(title: "journaled")))
        try Data("not a property list".utf8).write(to: repository().snapshotURL)
        let journal = try FileHandle(forWritingTo: repository().journalURL)
        try journal.seekToEnd()
        try journal.write(contentsOf: Data("not a change\n".utf8))
        try journal.close()
    }

    @Test("one load reports a damaged snapshot and a damaged journal line, with what is readable")
    func twoDamagedParts() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await damageSnapshotAndJournal()
        let loaded = try await repository().loadReadableTodos()
        #expect(loaded.todos.map(\.title) == ["journaled"])
        let reasons = loaded.skipped.map(\.description)
        #expect(reasons.count == 2, "\(reasons)")
        #expect(reasons.contains { $0.contains("todo-list.snapshot") && $0.contains(".damaged-") })
        #expect(reasons.contains { $0.contains("todo-list.journal") && $0.contains(".damaged-") })
        #expect(try await titlesAfterRestart() == ["journaled"])
        #expect(try setAsideCopies().count == 2)
    }

    @Test("a load over damaged files names every part it skipped in one error")
    func loadNamesEverySkippedPart() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await damageSnapshotAndJournal()
        let todos = await RecordedTodos(repository())
        guard case .unreadable(let reason) = try #require(todos.loadError) else { return }
        #expect(reason.contains("todo-list.snapshot") && reason.contains("todo-list.journal"), "\(reason)")
        #expect(todos.list.todos.map(\.title) == ["journaled"])
    }

    @Test(
        "a snapshot that parses but cannot be used is set aside; changes made meanwhile are kept (item 2)",
        arguments: ["future version", "misaligned columns", "wrong type", "directory"])
    func unusableSnapshot(kind: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let snapshot = repository().snapshotURL
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch kind {
        case "future version":
            try await JournaledStore<Columns>(folder: folder, name: "todo-list", snapshotVersion: 9).replace(
                with: Columns())
        case "misaligned columns":
            var columns = Columns()
            columns.doneFlags = Data([1, 0, 1])
            try await JournaledStore<Columns>(folder: folder, name: "todo-list").replace(with: columns)
        case "wrong type":
            try await JournaledStore<Titles>(folder: folder, name: "todo-list").replace(with: Titles())
        default:
            try FileManager.default.createDirectory(at: snapshot, withIntermediateDirectories: false)
        }
        let damaged = try? Data(contentsOf: snapshot)
        var todos = await RecordedTodos(repository(threshold: 2))
        #expect(todos.loadError != nil)
        try await todos.add("a")
        try await todos.add("b")  // folds
        try await todos.add("c")
        #expect(
            try await titlesAfterRestart() == ["a", "b", "c"], "every later start works and shows the changes"
        )
        let copy = try #require(try setAsideCopies().first)
        if let damaged {
            #expect(
                try Data(contentsOf: folder.appendingPathComponent(copy)) == damaged,
                "the fold did not touch it")
        }
    }

    @Test("a torn journal tail does not poison the next append (item 3)")
    func tornTail() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var first = await RecordedTodos(repository())
        try await first.add("a")
        let handle = try FileHandle(forWritingTo: repository().journalURL)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"sequence":2,"change":{"deleted":{"_0":["#.utf8))
        try handle.close()
        var second = await RecordedTodos(repository())
        #expect(second.loadError == nil, "a cut-short write was never acknowledged: no damage")
        try await second.add("b")
        #expect(try await titlesAfterRestart() == ["a", "b"])
        #expect(try setAsideCopies().isEmpty)
    }
}

/// Columns under the todo snapshot's names, which a test can make disagree.
struct Columns: Journaled {
    var ids = Data(count: 16)
    var titles = Data("x".utf8)
    var titleLengths = Data([1, 0, 0, 0])
    var doneFlags = Data([0])
    var createdAt = Data(count: 8)

    init() {}
    init(snapshot: Columns) { self = snapshot }
    var snapshot: Columns { self }
    mutating func apply(_ change: Int) {}
}

extension Columns: Codable {}

/// Something else stored under the todos' name.
struct Titles: Journaled {
    init() {}
    init(snapshot: [String]) {}
    var snapshot: [String] { ["not", "columns"] }
    mutating func apply(_ change: Int) {}
}
