import Foundation
import LocalProvider
import Testing

@Suite("Across processes")
struct ProcessTests {
    @Test("one process writes, a new one reads")
    func persistence() throws {
        let folder = try TemporaryFolder()
        try runProbe(["write", folder.url.path, "greeting", "안녕, Rex"])
        #expect(try runProbe(["read", folder.url.path, "greeting"]) == "안녕, Rex")
        let store = try PlistFileStore(root: folder.url)
        #expect(try store.load(StorageKey<String>("greeting")) == "안녕, Rex")
    }

    @Test("UserDefaults values persist to the next process (Linux does not save without synchronize)")
    func userDefaultsPersistence() throws {
        let folder = try TemporaryFolder()
        let environment = ["XDG_CONFIG_HOME": folder.url.path]
        try runProbe(["defaults-write", "RibcageProbe.profile", "name", "Tom"], environment: environment)
        #expect(FileManager.default.fileExists(atPath: folder.file("RibcageProbe.profile.plist").path))
        let read = try runProbe(["defaults-read", "RibcageProbe.profile", "name"], environment: environment)
        #expect(read == "Tom")
    }

    @Test("a writer killed with SIGKILL mid-write leaves every file decodable", arguments: 1...5)
    func killedWriter(round: Int) async throws {
        let folder = try TemporaryFolder()
        let process = Process()
        process.executableURL = try storageProbe()
        process.arguments = ["loop", folder.url.path, "4"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // Wait for the first full round, then kill at a different moment each time.
        let ready = output.fileHandleForReading.availableDataUntil {
            String(decoding: $0, as: UTF8.self).contains("ready")
        }
        #expect(ready)
        try await Task.sleep(for: .milliseconds(20 + 37 * round))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        struct Batch: Codable, Sendable {
            var round: Int
            var lines: [String]
        }
        let store = try PlistFileStore(root: folder.url, format: .binary)
        for index in 0..<4 {
            let batch = try #require(try store.load(StorageKey<Batch>("batch-\(index)")))
            #expect(batch.lines.count == 2_000)
            #expect(batch.lines.allSatisfy { $0.hasPrefix("round \(batch.round) key \(index) ") })
        }
    }
}

extension FileHandle {
    /// Reads until `condition` holds for everything read so far, or the other end closes.
    func availableDataUntil(_ condition: (Data) -> Bool) -> Bool {
        var collected = Data()
        while true {
            let chunk = availableData
            if chunk.isEmpty { return condition(collected) }
            collected.append(chunk)
            if condition(collected) { return true }
        }
    }
}

@Suite("UserDefaultsStore")
struct UserDefaultsStoreTests {
    @Test("round-trips typed values, with expiry, in a named suite")
    func roundTrip() throws {
        let suite = "RibcageTests-\(UInt32.random(in: 0...UInt32.max))"
        let store = try UserDefaultsStore(suiteName: suite)
        defer { UserDefaults.standard.removePersistentDomain(forName: suite) }
        try store.save(Todo(id: 1, title: "Walk"), for: StorageKey<Todo>("todo"))
        try store.save("gone", for: StorageKey<String>("stale"), expiry: .date(Date().addingTimeInterval(-1)))
        #expect(try store.load(StorageKey<Todo>("todo")) == Todo(id: 1, title: "Walk"))
        #expect(try store.load(StorageKey<String>("stale")) == nil)
        try store.remove(StorageKey<Todo>("todo"))
        #expect(try store.load(StorageKey<Todo>("todo")) == nil)
    }

    @Test("rejects a raw value that is not a property list, where Foundation would crash")
    func rejectsNonPlist() throws {
        let suite = "RibcageTests-\(UInt32.random(in: 0...UInt32.max))"
        let store = try UserDefaultsStore(suiteName: suite)
        defer { UserDefaults.standard.removePersistentDomain(forName: suite) }
        final class NotAPlist {}
        let error = try #require(throws: StorageError.self) {
            try store.setPropertyList(NotAPlist(), forKey: "bad")
        }
        guard case .notAPropertyList(let key, let type) = error else {
            Issue.record("expected notAPropertyList, got \(error)")
            return
        }
        #expect(key == "bad")
        #expect(type.contains("NotAPlist"))
        #expect(throws: StorageError.self) {
            try store.setPropertyList(["ok": [NotAPlist()]], forKey: "nested")
        }
        try store.setPropertyList(["name": "Rex", "age": 3], forKey: "good")
        #expect((store.propertyList(forKey: "good") as? [String: Any])?["name"] as? String == "Rex")
    }

    @Test("refuses a bad suite name")
    func badSuite() {
        #expect(throws: StorageError.self) { try UserDefaultsStore(suiteName: "../evil") }
    }
}
