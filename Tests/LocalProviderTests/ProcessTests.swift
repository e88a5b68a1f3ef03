import Foundation
import LocalProvider
import Testing

/// Real child processes: `storage-probe` writes through the stores; the tests read what it left.
@Suite("Across processes")
struct ProcessTests {
    @Test("one process writes, a new one reads")
    func persistence() async throws {
        let folder = try TemporaryFolder()
        try await runProbe(["write", folder.url.path, "greeting", "안녕, Rex"])
        #expect(try await runProbe(["read", folder.url.path, "greeting"]) == "안녕, Rex")
        let store = try PlistFileStore(root: folder.url)
        #expect(try await store.load(StorageKey<String>("greeting")) == "안녕, Rex")
    }

    @Test("UserDefaults values persist to the next process")
    func userDefaultsPersistence() async throws {
        let folder = try TemporaryFolder()
        let environment = ["XDG_CONFIG_HOME": folder.url.path]
        try await runProbe(
            ["defaults-write", "RibcageProbe.profile", "name", "Tom"], environment: environment)
        #expect(FileManager.default.fileExists(atPath: folder.file("RibcageProbe.profile.plist").path))
        let read = try await runProbe(
            ["defaults-read", "RibcageProbe.profile", "name"], environment: environment)
        #expect(read == "Tom")
    }

    @Test(
        "eight processes writing different keys of one file keep every key (issue 15, item 5)",
        arguments: ["PlistFileStore", "UserDefaultsStore"])
    func writersOfOneFile(kind: String) async throws {
        let folder = try TemporaryFolder()
        let environment = ["XDG_CONFIG_HOME": folder.url.path]
        try await inParallel(8) { writer in
            if kind == "PlistFileStore" {
                try await runProbe(["table-writer", folder.url.path, "writer\(writer)", "25"])
            } else {
                try await runProbe(
                    ["defaults-writer", "Shared", "writer\(writer)", "25"], environment: environment)
            }
        }
        let store: any LocalStore =
            kind == "PlistFileStore"
            ? try PlistFileStore(root: folder.url, layout: .singleFile(name: "shared"))
            : try UserDefaultsStore(suiteName: "Shared", environment: environment)
        for writer in 0..<8 {
            for index in 0..<25 {
                let name = "writer\(writer)-\(index)"
                #expect(try await store.load(StorageKey<String>(name)) == name)
            }
        }
    }

    @Test("four processes appending to one journaled store, folding as they go, lose no change")
    func appendersOfOneJournal() async throws {
        let folder = try TemporaryFolder()
        try await inParallel(4) { writer in
            try await runProbe(["journal-appender", folder.url.path, "\(writer + 1)", "60", "16"])
        }
        let summary = try await runProbe(["journal-check", folder.url.path])
        #expect(summary == "count 240 max 4000060 distinct 240 setAside 0")
    }

    @Test("reading an expired value never removes a fresh one another process saved (issue 15, item 6)")
    func expiryRemovesOnlyWhatWasRead() async throws {
        let folder = try TemporaryFolder()
        let lost = try await whileProbeRuns(["expiry-reader", folder.url.path]) {
            try await whileProbeRuns(["expiry-reader", folder.url.path]) {
                try await runProbe(["expiry-writer", folder.url.path, "400"])
            }
        }
        #expect(lost == "lost 0")
    }

    @Test("a full disk cuts an append short; once there is room, every acknowledged change is there (item 3)")
    func fullDisk() async throws {
        let folder = try TemporaryFolder()
        try await runProbe(["journal-appender", folder.url.path, "0", "5", "1000000"])
        // The probe limits the journal's growth (RLIMIT_FSIZE) to 100 bytes more: the append
        // that crosses it is written in part, as on a full disk, then fails.
        let output = try await runProbe(["journal-disk-full", folder.url.path, "100"])
        let acknowledged = output.split(separator: "\n").filter { $0.hasPrefix("ack ") }.count
        #expect(acknowledged >= 1 && output.contains("failed "), "\(output)")
        let journal = try Data(contentsOf: folder.file("numbers.journal"))
        #expect(journal.last == UInt8(ascii: "\n"), "the cut-short line was taken back")
        let total = 5 + acknowledged
        #expect(
            try await runProbe(["journal-check", folder.url.path])
                == "count \(total) max \(total) distinct \(total) setAside 0")
        try await runProbe(["journal-appender", folder.url.path, "9", "3", "1000000"])
        #expect(
            try await runProbe(["journal-check", folder.url.path])
                == "count \(total + 3) max 9000003 distinct \(total + 3) setAside 0")
    }

    @Test(
        "a full disk fails a save with a typed error; the old value and the others stay, no temporary file is left",
        arguments: ["plist", "table", "defaults"])
    func fullDiskOnSave(kind: String) async throws {
        let folder = try TemporaryFolder()
        let store: any LocalStore =
            switch kind {
            case "plist": try PlistFileStore(root: folder.url)
            case "table": try PlistFileStore(root: folder.url, layout: .singleFile(name: "table"))
            default:
                try UserDefaultsStore(suiteName: "Suite", environment: ["XDG_CONFIG_HOME": folder.url.path])
            }
        try await store.save("small", for: StorageKey<String>("big"))
        try await store.save("bystander", for: StorageKey<String>("bystander"))
        let before = folder.fileNames
        // The probe limits every file it writes to 8 KiB (RLIMIT_FSIZE) and saves 32 KiB: the
        // temporary file fills up to the limit, as on a full disk, and the next write fails.
        #expect(try await runProbe(["disk-full", kind, folder.url.path, "8192"]) == "failed write \(EFBIG)")
        #expect(folder.fileNames == before, "no temporary file left, nothing set aside")
        #expect(try await store.load(StorageKey<String>("big")) == "small")
        #expect(try await store.load(StorageKey<String>("bystander")) == "bystander")
        // Once there is room again, the same save works.
        try await store.save(String(repeating: "x", count: 32_768), for: StorageKey<String>("big"))
        #expect(try await store.load(StorageKey<String>("big"))?.count == 32_768)
    }
}

/// Runs `body` for 0..<count at once and waits for all.
func inParallel(_ count: Int, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<count { group.addTask { try await body(index) } }
        try await group.waitForAll()
    }
}
