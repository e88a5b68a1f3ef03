import ContentDigest
import Foundation
import RibcagePackage
import RibcageTesting
import Testing

@Suite("Test cache: SHA-256, Bazel's ActionResult and the local store")
struct TestCacheStoreTests {
    @Test("SHA-256 gives FIPS 180-4's digests")
    func fipsVectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var million = SHA256()
        let chunk = Data(repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { million.update(chunk) }
        #expect(million.finalize() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("SHA-256 agrees with sha256sum on random bytes fed in random pieces")
    func againstSha256sum() async throws {
        let folder = try TemporaryFolder()
        var generator = SystemRandomNumberGenerator()
        for length in [55, 56, 63, 64, 65, 4097, 100_003] {
            let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let file = folder.url.appendingPathComponent("blob-\(length)")
            try bytes.write(to: file)
            let sum = try await Shell.run("sha256sum", [file.path])
            try #require(sum.succeeded, "sha256sum is part of coreutils")
            var hash = SHA256()
            var offset = 0
            while offset < bytes.count {
                let piece = Int.random(in: 1...130, using: &generator)
                hash.update(bytes[offset..<min(offset + piece, bytes.count)])
                offset += piece
            }
            #expect(hash.finalize() == String(sum.outputText.prefix(64)), "length \(length)")
        }
    }

    @Test("an ActionResult survives its encoding; a truncated one is an error")
    func actionResult() throws {
        let result = ActionResult(
            outputFiles: [
                .init(path: "ribcage-test-result.json", hash: String(repeating: "ab", count: 32), size: 300)
            ])
        let bytes = result.serialized()
        #expect(try ActionResult(serialized: bytes) == result)
        for cut in [1, 5, bytes.count / 2, bytes.count - 1] {
            #expect(throws: ActionResult.Malformed.self) { try ActionResult(serialized: bytes.prefix(cut)) }
        }
        // The wire bytes Bazel's protobuf writes for this message: field 2, length 97, field 1…
        #expect(Array(bytes.prefix(4)) == [0x12, 97, 0x0a, 24])
    }

    static func entry(_ key: TestCacheKey) -> TestCacheEntry {
        TestCacheEntry(
            testTarget: key.testTarget, key: key, passed: 12, skipped: 1, seconds: 0.5, commit: "abc1234",
            host: "ci-7", date: Date(timeIntervalSince1970: 1_800_000_000),
            recordedInputs: [.init(kind: .file, path: "Tests/Fixtures/a.json", digest: SHA256.hex("a"))])
    }

    static let key = TestCacheKey(
        testTarget: "CoreTests",
        parts: [.init(kind: .file, name: "Sources/Core/Core.swift", digest: SHA256.hex("x"))])

    final class Warnings: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test("the local store keeps a green entry under its key, laid out as ac/ and cas/")
    func localRoundTrip() async throws {
        let folder = try TemporaryFolder()
        let warnings = Warnings()
        let cache = TestCache(
            local: LocalBlobStore(folder: folder.url), remote: nil, warn: { warnings.add($0) })
        #expect(await cache.lookUp(Self.key) == nil)
        await cache.record(Self.entry(Self.key))
        let found = await cache.lookUp(Self.key)
        #expect(found?.entry == Self.entry(Self.withoutParts(Self.key)))
        #expect(found?.source == .local)
        #expect(found?.entry.summary == "cached: green at abc1234 on ci-7, 2027-01-15 08:00 UTC")
        #expect(
            FileManager.default.fileExists(
                atPath: folder.url.appendingPathComponent("ac/\(Self.key.hash)").path))
        #expect(try await cache.latestEntry(of: "CoreTests", withParts: true) == Self.entry(Self.key))
        #expect(try await cache.latestEntry(of: "CoreTests") == Self.entry(Self.withoutParts(Self.key)))
        #expect(warnings.all.isEmpty)
    }

    static func withoutParts(_ key: TestCacheKey) -> TestCacheKey {
        TestCacheKey(testTarget: key.testTarget, parts: [], hash: key.hash)
    }

    /// A local store holding ``entry(_:)`` for ``key``, and the `ActionResult` that names it.
    static func recordedEntry() async throws -> (
        TemporaryFolder, Warnings, LocalBlobStore, TestCache, ActionResult
    ) {
        let folder = try TemporaryFolder()
        let warnings = Warnings()
        let store = LocalBlobStore(folder: folder.url)
        let cache = TestCache(local: store, remote: nil, warn: { warnings.add($0) })
        await cache.record(Self.entry(Self.key))
        let action = try ActionResult(
            serialized: try #require(try await store.get(.actionCache, Self.key.hash)))
        return (folder, warnings, store, cache, action)
    }

    @Test("the key's parts are a blob of their own, named by the ActionResult, that a look-up never reads")
    func keyPartsApart() async throws {
        let (folder, warnings, store, cache, action) = try await Self.recordedEntry()
        #expect(
            action.outputFiles.map(\.path) == ["ribcage-test-result.json", "ribcage-test-key-parts.json"])
        let result = try #require(try await store.get(.contentStore, action.outputFiles[0].hash))
        let parts = try #require(try await store.get(.contentStore, action.outputFiles[1].hash))
        #expect(Int64(parts.count) == action.outputFiles[1].size)
        let file = "Core.swift"  // JSONEncoder writes a slash as \/
        #expect(!String(decoding: result, as: UTF8.self).contains(file))
        #expect(String(decoding: parts, as: UTF8.self).contains(file))

        // Without the parts blob, the entry is still a hit; only --explain-cache misses them.
        try FileManager.default.removeItem(
            at: folder.url.appendingPathComponent("cas/\(action.outputFiles[1].hash)"))
        #expect(await cache.lookUp(Self.key)?.entry == Self.entry(Self.withoutParts(Self.key)))
        #expect(try await cache.latestEntry(of: "CoreTests", withParts: true)?.key.parts == [])
        let explained = CacheExplanation(
            key: Self.key, hit: nil, latest: try await cache.latestEntry(of: "CoreTests", withParts: true)
        ).text
        #expect(explained.contains("without its key's parts: what changed is unknown"), "\(explained)")
        #expect(warnings.all.isEmpty)
    }

    @Test("a result in the layout before recipe 4 (its key's parts inline) is a miss, never a hit")
    func oldLayout() async throws {
        // An entry as recipe 3 wrote it, recorded inputs and all, under this key's own action.
        try await Self.expectRefused(
            """
            {"date":"2027-01-15T08:00:00Z","host":"ci-7","key":{"hash":"\(Self.key.hash)","parts":\
            [{"digest":"\(SHA256.hex("x"))","kind":"file","name":"Sources/Core/Core.swift"}],\
            "testTarget":"CoreTests"},"passed":12,"recordedInputs":[],"seconds":0.5,"skipped":1,\
            "testTarget":"CoreTests"}
            """)
        // And the recipe changed, so a key of recipe 3 or 4 is never this one.
        #expect(TestCacheKey.recipe == "ribcage-test-cache/5")
    }

    @Test("a result of recipe 4 (its date an ISO 8601 string) is a miss, never a hit")
    func recipe4Result() async throws {
        try await Self.expectRefused(
            """
            {"date":"2027-01-15T08:00:00Z","host":"ci-7","key":{"hash":"\(Self.key.hash)",\
            "testTarget":"CoreTests"},"keyParts":{"hash":"\(SHA256.hex("{}"))","size":2},"passed":12,\
            "recordedInputs":[],"seconds":0.5,"skipped":1,"testTarget":"CoreTests"}
            """)
    }

    /// Stores `result` as the green entry of ``key`` and expects both look-ups to refuse it, one
    /// of them saying why.
    private static func expectRefused(_ result: String) async throws {
        let folder = try TemporaryFolder()
        let warnings = Warnings()
        let store = LocalBlobStore(folder: folder.url)
        let cache = TestCache(local: store, remote: nil, warn: { warnings.add($0) })
        let blob = Data(result.utf8)
        let digest = SHA256.hex(blob)
        try await store.put(.contentStore, digest, blob)
        try await store.put(
            .actionCache, key.hash,
            ActionResult(outputFiles: [
                .init(path: "ribcage-test-result.json", hash: digest, size: Int64(blob.count))
            ])
            .serialized())
        #expect(await cache.lookUp(key) == nil)
        #expect(await cache.localEntries([key]).entries.isEmpty)
        #expect(warnings.all.last?.contains("is not a ribcage test result") == true, "\(warnings.all)")
    }

    @Test("a truncated, garbled or missing blob is a warning and a miss, never a hit")
    func damagedEntries() async throws {
        let (folder, warnings, store, cache, action) = try await Self.recordedEntry()
        let blobHash = try #require(action.outputFiles.first?.hash)
        let blob = try #require(try await store.get(.contentStore, blobHash))

        try await store.put(.contentStore, blobHash, blob.prefix(blob.count / 2))
        #expect(await cache.lookUp(Self.key) == nil)
        #expect(warnings.all.last?.contains("do not hash to its name") == true)

        try await store.put(.contentStore, blobHash, blob)
        try await store.put(.actionCache, Self.key.hash, Data([0x12, 0x7f, 0x0a]))
        #expect(await cache.lookUp(Self.key) == nil)
        #expect(warnings.all.last?.contains("is not an ActionResult") == true)

        // An action that names a blob holding another key's result.
        let other = TestCacheKey(testTarget: "CoreTests", parts: [])
        await cache.record(Self.entry(other))
        try await store.put(
            .actionCache, Self.key.hash, try #require(try await store.get(.actionCache, other.hash)))
        #expect(await cache.lookUp(Self.key) == nil)
        #expect(warnings.all.last?.contains("another key's result") == true)

        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("cas"))
        #expect(await cache.lookUp(other) == nil)
        #expect(warnings.all.last?.contains("is missing") == true)
    }

    @Test("an unreachable server is one warning, then the run goes on without it")
    func unreachableServer() async throws {
        let folder = try TemporaryFolder()
        let warnings = Warnings()
        // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
        let remote = try HTTPBlobStore(url: "http://user:s3cret@127.0.0.1:9/cache", timeout: .seconds(5))
        let cache = TestCache(
            local: LocalBlobStore(folder: folder.url), remote: remote, warn: { warnings.add($0) })
        #expect(await cache.lookUp(Self.key) == nil)
        #expect(await cache.lookUp(TestCacheKey(testTarget: "Other", parts: [])) == nil)
        await cache.record(Self.entry(Self.key))
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("http://127.0.0.1:9/cache") == true)
        #expect(!warnings.all.joined().contains("s3cret"))
        // The local store still took the green result.
        #expect(await cache.lookUp(Self.key)?.source == .local)
    }

    /// A shared store whose reads find nothing (or fail as told) and whose writes fail as told.
    actor FailingStore: BlobStore {
        nonisolated let displayName = "the failing store"
        let readFailure: TestCacheError?
        let writeFailure: TestCacheError
        private(set) var reads = 0
        private(set) var writes = 0

        init(reads readFailure: TestCacheError? = nil, writes writeFailure: TestCacheError) {
            self.readFailure = readFailure
            self.writeFailure = writeFailure
        }

        func get(_ area: CacheArea, _ hash: String, size: Int64?) async throws -> Data? {
            reads += 1
            if let readFailure { throw readFailure }
            return nil
        }

        func put(_ area: CacheArea, _ hash: String, _ data: Data) async throws {
            writes += 1
            throw writeFailure
        }
    }

    static let otherKey = TestCacheKey(
        testTarget: "OtherTests",
        parts: [.init(kind: .testTarget, name: "OtherTests", digest: SHA256.hex("o"))])

    @Test(
        "a server that refuses a write is said once and not written to again; its reads go on",
        arguments: [
            TestCacheError.refused("PERMISSION_DENIED"),
            .httpStatus(403, method: "PUT", url: "http://cache/ac/1"),
            .httpStatus(405, method: "PUT", url: "http://cache/ac/1"),
        ])
    func refusedWrites(refusal: TestCacheError) async throws {
        let folder = try TemporaryFolder()
        let warnings = Warnings()
        let remote = FailingStore(writes: refusal)
        let cache = TestCache(
            local: LocalBlobStore(folder: folder.url), remote: remote, warn: { warnings.add($0) })
        await cache.record(Self.entry(Self.key))
        await cache.record(Self.entry(Self.otherKey))
        await cache.recordRed(Self.entry(Self.otherKey))
        #expect(await remote.writes == 1)
        #expect(warnings.all.count == 1, "\(warnings.all)")
        #expect(
            warnings.all.first?.contains("not writing to the failing store for the rest of this run") == true,
            "\(warnings.all)")
        #expect(await cache.lookUp(Self.otherKey)?.source == .local)
        let absent = TestCacheKey(
            testTarget: "AbsentTests",
            parts: [.init(kind: .testTarget, name: "AbsentTests", digest: SHA256.hex("a"))])
        #expect(await cache.lookUp(absent) == nil)
        #expect(await remote.reads > 0, "a store that refuses writes is still read")
        #expect(warnings.all.count == 1, "\(warnings.all)")
    }

    @Test("one upload that fails (too large, a server error) is that upload's: the next is tried")
    func failedUpload() async throws {
        let folder = try TemporaryFolder()
        let warnings = Warnings()
        let remote = FailingStore(writes: .httpStatus(413, method: "PUT", url: "http://cache/cas/1"))
        let cache = TestCache(
            local: LocalBlobStore(folder: folder.url), remote: remote, warn: { warnings.add($0) })
        await cache.record(Self.entry(Self.key))
        await cache.record(Self.entry(Self.otherKey))
        #expect(await remote.writes == 2)
        #expect(warnings.all.count == 2, "\(warnings.all)")
    }

    @Test("a server that refuses this client its reads is said once and not asked again")
    func refusedReads() async throws {
        let folder = try TemporaryFolder()
        let warnings = Warnings()
        let remote = FailingStore(
            reads: .refused("grpc://cache:8980: GetActionResult failed on the server (PERMISSION_DENIED)"),
            writes: .refused("PERMISSION_DENIED"))
        let cache = TestCache(
            local: LocalBlobStore(folder: folder.url), remote: remote, warn: { warnings.add($0) })
        #expect(await cache.lookUp(Self.key) == nil)
        #expect(await cache.lookUp(Self.otherKey) == nil)
        await cache.record(Self.entry(Self.key))
        #expect(await remote.reads == 1)
        #expect(await remote.writes == 0)
        #expect(warnings.all.count == 1, "\(warnings.all)")
        #expect(warnings.all.first?.contains("running without the shared cache") == true, "\(warnings.all)")
    }

    @Test("--cache-url: credentials are redacted; anything but http(s) is refused")
    func urls() throws {
        #expect(
            HTTPBlobStore.redacted("https://ci:t0ken@cache.example/ribcage")
                == "https://***@cache.example/ribcage")
        #expect(
            try HTTPBlobStore(url: "https://ci:t0ken@cache.example/ribcage/").displayName
                == "https://cache.example/ribcage")
        #expect(throws: TestCacheError.badURL("ftp://cache.example")) {
            try HTTPBlobStore(url: "ftp://cache.example")
        }
        #expect(throws: TestCacheError.badURL("grpc://***@host")) {
            try HTTPBlobStore(url: "grpc://a:b@host")
        }
    }
}

@Suite("Test cache: red runs kept as evidence of flakiness")
struct TestCacheRedRunTests {
    static func red(_ key: TestCacheKey, host: String) -> TestCacheEntry {
        TestCacheEntry(
            testTarget: key.testTarget, key: key, passed: 1, failed: 1, skipped: 0, seconds: 0.5,
            commit: "abc1234",
            host: host, date: Date(timeIntervalSince1970: 1_800_000_000), recordedInputs: nil,
            cases: [
                .init(test: "CoreTests/flips()", outcome: .failed, seconds: 0.1),
                .init(test: "CoreTests/steady()", outcome: .passed, seconds: 0.1),
            ])
    }

    @Test("a red run lives in its key's red slot: never a hit, found as evidence")
    func redSlot() async throws {
        let folder = try TemporaryFolder()
        let cache = TestCache(local: LocalBlobStore(folder: folder.url), remote: nil, warn: { _ in })
        let key = TestCacheStoreTests.key
        #expect(key.redSlot != key.hash)
        await cache.recordRed(Self.red(key, host: "ci-1"))
        #expect(await cache.lookUp(key) == nil)
        #expect(await cache.lookUpRed(key) == Self.red(TestCacheStoreTests.withoutParts(key), host: "ci-1"))

        // A server that was sent a red run under the green key still never answers green with it.
        let store = LocalBlobStore(folder: folder.url)
        let redAction = try #require(try await store.get(.actionCache, key.redSlot))
        try await store.put(.actionCache, key.hash, redAction)
        #expect(await cache.lookUp(key) == nil)
    }

    @Test("the tests red in one run and green in another with the same key are flaky")
    func verdict() {
        let key = TestCacheStoreTests.key
        var green = TestCacheStoreTests.entry(key)
        green.host = "ci-2"
        green.cases = [
            .init(test: "CoreTests/flips()", outcome: .passed, seconds: 0.1),
            .init(test: "CoreTests/steady()", outcome: .passed, seconds: 0.1),
        ]
        let events = TestCacheSession.flakyTests(
            green: green, red: Self.red(key, host: "ci-1"), now: Date(timeIntervalSince1970: 0), commit: "c")
        #expect(events.map(\.test) == ["CoreTests/flips()"])
        #expect(events.first?.hosts == ["ci-1", "ci-2"])
        #expect(events.first?.evidence == .sameKey)
        #expect(events.first?.key == key.hash)

        // A test the green run skipped is no evidence.
        green.cases?[0].outcome = .skipped
        #expect(
            TestCacheSession.flakyTests(
                green: green, red: Self.red(key, host: "ci-1"), now: Date(timeIntervalSince1970: 0),
                commit: "c"
            ).isEmpty)
    }
}
