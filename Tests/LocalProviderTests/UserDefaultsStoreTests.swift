import Foundation
import LocalProvider
import Testing

@Suite("UserDefaultsStore")
struct UserDefaultsStoreTests {
    let config: TemporaryFolder
    let suite = "RibcageTests-\(UInt32.random(in: 0...UInt32.max))"

    init() throws {
        config = try TemporaryFolder()
    }

    func store() throws -> UserDefaultsStore {
        try UserDefaultsStore(suiteName: suite, environment: ["XDG_CONFIG_HOME": config.url.path])
    }

    @Test("round-trips typed values, with expiry, in the suite's file")
    func roundTrip() throws {
        let clock = ManualClock()
        let store = try UserDefaultsStore(
            suiteName: suite, environment: ["XDG_CONFIG_HOME": config.url.path], clock: clock.function)
        try store.save(Todo(id: 1, title: "Walk"), for: StorageKey<Todo>("todo"))
        try store.save("gone", for: StorageKey<String>("stale"), expiry: .seconds(5))
        clock.advance(by: 6)
        #expect(try store.load(StorageKey<Todo>("todo")) == Todo(id: 1, title: "Walk"))
        #expect(try store.load(StorageKey<String>("stale")) == nil)
        try store.remove(StorageKey<Todo>("todo"))
        #expect(try self.store().load(StorageKey<Todo>("todo")) == nil)
        #expect(store.fileURL == config.file("\(suite).plist"))
        #expect(config.fileNames == ["\(suite).plist"], "no temporary file is left behind")
    }

    @Test("the suite stays readable by Foundation's UserDefaults")
    func foundationReadsTheSuite() throws {
        let store = try UserDefaultsStore(suiteName: suite)
        defer { try? FileManager.default.removeItem(at: store.fileURL) }
        try store.setPropertyList("Rex", forKey: "name")
        try store.save(3, for: StorageKey<Int>("age"))
        let defaults = try #require(UserDefaults(suiteName: suite))
        #expect(defaults.string(forKey: "name") == "Rex")
        #expect(defaults.data(forKey: "age") != nil, "a typed value is an envelope in Data")
    }

    @Test("rejects a raw value that is not a property list, where Foundation would crash")
    func rejectsNonPlist() throws {
        let store = try store()
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
        #expect((try store.propertyList(forKey: "good") as? [String: Any])?["name"] as? String == "Rex")
    }

    @Test("a raw value under a typed key's name is an error and is set aside, not read as absent")
    func rawValueUnderTypedKey() throws {
        let store = try store()
        try store.setPropertyList("Tom", forKey: "name")
        try store.save("kept", for: StorageKey<String>("other"))
        let error = try #require(throws: StorageError.self) { try store.load(StorageKey<String>("name")) }
        guard case .damaged(_, let aside, .wrongType(key: "name", _)) = error else {
            Issue.record("expected damaged(wrongType), got \(error)")
            return
        }
        let copy = try PropertyListSerialization.propertyList(from: Data(contentsOf: aside), format: nil)
        #expect((copy as? [String: Any])?["name"] as? String == "Tom", "the copy holds the suite as it was")
        #expect(try store.load(StorageKey<String>("name")) == nil)
        #expect(try store.load(StorageKey<String>("other")) == "kept")
    }

    @Test("refuses a bad suite name")
    func badSuite() {
        #expect(throws: StorageError.self) { try UserDefaultsStore(suiteName: "../evil") }
    }
}
