import Foundation
import LocalProvider
import Testing

@Suite("Storage keys")
struct StorageKeyTests {
    @Test(
        "refuse bad names with a typed reason",
        arguments: [
            ("", InvalidKeyReason.empty),
            ("../etc/passwd", .pathTraversal),
            ("a/b", .pathTraversal),
            ("todos..old", .pathTraversal),
            (".hidden", .invalidCharacter(".")),
            ("with space", .invalidCharacter(" ")),
            ("ünïcode", .invalidCharacter("ü")),
            (String(repeating: "k", count: 129), .tooLong(length: 129)),
        ])
    func refusesBadNames(name: String, reason: InvalidKeyReason) throws {
        let error = try #require(throws: StorageError.self) { try StorageKey<Int>(name).validate() }
        guard case .invalidKey(let badName, let actual) = error else {
            Issue.record("expected invalidKey, got \(error)")
            return
        }
        #expect(badName == name)
        #expect(actual == reason)
    }

    @Test("accept letters, digits, dots, dashes and underscores up to 128 characters")
    func acceptsGoodNames() throws {
        try StorageKey<Int>("todo-list_v2.backup").validate()
        try StorageKey<Int>(String(repeating: "k", count: 128)).validate()
    }

    @Test("a store refuses a bad key before touching the disk")
    func storeRefuses() throws {
        let folder = try TemporaryFolder()
        let store = try PlistFileStore(root: folder.url)
        #expect(throws: StorageError.self) { try store.save(1, for: StorageKey<Int>("../escape")) }
        #expect(folder.fileNames.isEmpty)
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.url.deletingLastPathComponent().appendingPathComponent("escape.plist").path))
    }
}
