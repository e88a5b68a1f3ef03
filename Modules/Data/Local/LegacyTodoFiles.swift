import Domain
import Foundation
import LocalProvider

/// The todos as the first releases kept them, read once to move them into the journaled store:
/// `todos.plist`, a snapshot through ``PlistFileStore`` (version 1: one dictionary per todo;
/// version 2: ``TodoSnapshot``'s columns), and `todos.journal`, one ``TodoChange`` in JSON a
/// line, applied in order over the snapshot.
struct LegacyTodoFiles {
    let folder: URL

    var snapshotURL: URL { folder.appendingPathComponent("todos.plist", isDirectory: false) }
    var journalURL: URL { folder.appendingPathComponent("todos.journal", isDirectory: false) }

    var exist: Bool {
        FileManager.default.fileExists(atPath: snapshotURL.path)
            || FileManager.default.fileExists(atPath: journalURL.path)
    }

    /// What the files hold, and what of them could not be read: a damaged snapshot is set aside
    /// by its store, a journal with a line that is not a change is set aside whole after its
    /// readable changes were taken.
    func read() throws -> (todos: [Todo], setAside: [String]) {
        var setAside: [String] = []
        var todos: [Todo] = []
        let store = try PlistFileStore(root: folder, format: .binary)
        do {
            if let snapshot = try store.load(Self.snapshotKey) {
                guard let columns = snapshot.todos else { throw TodoSnapshotError.misalignedColumns }
                todos = columns
            }
        } catch let error as StorageError {
            guard case .damaged = error else { throw error }
            setAside.append("\(error)")
        } catch {
            // Columns that do not line up: keep the file for a person, as the store does.
            setAside.append("\(snapshotURL.path): \(error); kept as \(try SetAside.move(snapshotURL).path)")
        }
        guard FileManager.default.fileExists(atPath: journalURL.path) else { return (todos, setAside) }
        let data = try Data(contentsOf: journalURL)
        let decoder = JSONDecoder()
        var damaged: [Int] = []
        // The part after the last newline is a write cut short: never acknowledged.
        for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .dropLast().enumerated() where !line.isEmpty
        {
            do {
                try decoder.decode(TodoChange.self, from: Data(line)).apply(to: &todos)
            } catch {
                damaged.append(index + 1)
            }
        }
        if !damaged.isEmpty {
            let aside = try SetAside.move(journalURL)
            setAside.append("\(journalURL.path): lines \(damaged) are not changes; kept as \(aside.path)")
        }
        return (todos, setAside)
    }

    /// Removes the files once their todos are in the journaled store.
    func remove() throws {
        for file in [journalURL, snapshotURL] where FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.removeItem(at: file)
        }
    }

    /// Version 2 of the snapshot is ``TodoSnapshot``'s columns; version 1 stored `[Todo]`.
    static let snapshotKey = StorageKey<TodoSnapshot>("todos", version: 2) { storedVersion, data in
        guard storedVersion == 1 else { throw TodoSnapshotError.unknownVersion(storedVersion) }
        return TodoSnapshot(try PropertyListDecoder().decode([Todo].self, from: data))
    }
}
