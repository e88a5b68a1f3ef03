import ContentDigest
import Foundation
import RemoteExecution
import RibcageTesting
import Testing

/// The test cache with a REAPI server as its shared store (`--cache-url grpc://…`), against a
/// real buildbox-casd on loopback.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct REAPIBlobStoreTests {
    static let key = TestCacheKey(
        testTarget: "CoreTests",
        parts: [.init(kind: .file, name: "Sources/Core/Core.swift", digest: SHA256.hex("x"))])

    static func entry(_ key: TestCacheKey, failed: Int? = nil) -> TestCacheEntry {
        TestCacheEntry(
            testTarget: key.testTarget, key: key, passed: 2, failed: failed, skipped: 0, seconds: 0.5,
            commit: "abc1234", host: "worker-1", date: Date(timeIntervalSince1970: 1_800_000_000),
            recordedInputs: [.init(kind: .file, path: "Tests/Fixtures/a.json", digest: SHA256.hex("a"))],
            cases: [.init(test: "CoreTests/adds()", outcome: failed == nil ? .passed : .failed, seconds: 0.1)]
        )
    }

    final class Warnings: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    static func withLocalFolder<T>(_ body: (LocalBlobStore) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcage-reapi-store-\(UUID().uuidString)", isDirectory: true)
        defer { removeRecordingFailure(folder) }
        return try await body(LocalBlobStore(folder: folder))
    }

    @Test("an entry stored on one machine is found on another through the server, red runs apart")
    func sharedThroughTheServer() async throws {
        try await Casd.withServer { casd in
            let warnings = Warnings()
            let writer = try REAPIBlobStore(address: casd.endpoint.description)
            try await Self.withLocalFolder { local in
                let cache = TestCache(local: local, remote: writer, warn: warnings.add)
                await cache.record(Self.entry(Self.key))
                await cache.recordRed(Self.entry(Self.key, failed: 1))
            }
            await writer.close()

            let reader = try REAPIBlobStore(address: casd.endpoint.description)
            try await Self.withLocalFolder { local in
                let cache = TestCache(local: local, remote: reader, warn: warnings.add)
                let found = try #require(await cache.lookUp(Self.key))
                #expect(found.source == .remote)
                #expect(found.entry.passed == 2 && found.entry.host == "worker-1")
                #expect(found.entry.recordedInputs == Self.entry(Self.key).recordedInputs)
                // Copied down: the next look-up is answered here.
                #expect(await cache.lookUp(Self.key)?.source == .local)
                // The red run is evidence under its own slot, never a hit.
                #expect(await cache.lookUpRed(Self.key)?.failed == 1)
                let other = TestCacheKey(
                    testTarget: "CoreTests",
                    parts: [.init(kind: .file, name: "Sources/Core/Core.swift", digest: SHA256.hex("y"))])
                #expect(await cache.lookUp(other) == nil)
            }
            await reader.close()
            #expect(warnings.all.isEmpty, "\(warnings.all)")

            // The entry is the server's: its action cache holds the key, its CAS the blobs named.
            let action = try await RemoteExecutionClient.withClient(casd.endpoint) { client in
                try await client.cachedResult(of: REAPIBlobStore.actionDigest(ofKey: Self.key.hash))
            }
            let names = try #require(action).outputFiles.map(\.path)
            #expect(names.contains(TestCache.entryFileName), "\(names)")
        }
    }

    @Test("a blob that is not what its name says is refused before it is sent; a blob absent is nil")
    func blobs() async throws {
        try await Casd.withServer { casd in
            let store = try REAPIBlobStore(address: casd.endpoint.description)
            let data = Data("a result".utf8)
            await #expect(throws: TestCacheError.self) {
                try await store.put(.contentStore, SHA256.hex("something else"), data)
            }
            try await store.put(.contentStore, SHA256.hex(data), data)
            #expect(try await store.get(.contentStore, SHA256.hex(data), size: Int64(data.count)) == data)
            let absent = Data("never stored".utf8)
            #expect(try await store.get(.contentStore, SHA256.hex(absent), size: Int64(absent.count)) == nil)
            #expect(try await store.get(.actionCache, SHA256.hex(absent)) == nil)
            await #expect(throws: TestCacheError.badHash("../etc/passwd")) {
                try await store.get(.actionCache, "../etc/passwd")
            }
            // What is not an ActionResult never reaches the action cache.
            await #expect(throws: TestCacheError.self) {
                try await store.put(.actionCache, SHA256.hex("k"), Data([0xFF, 0xFF, 0xFF]))
            }
            await store.close()
        }
    }

    @Test("a server that is gone is one warning, and the run goes on with the local store")
    func serverGone() async throws {
        let vacated = try await Casd.withServer { $0.endpoint.description }
        let warnings = Warnings()
        let store = try REAPIBlobStore(address: vacated, timeout: .seconds(5))
        try await Self.withLocalFolder { local in
            let cache = TestCache(local: local, remote: store, warn: warnings.add)
            #expect(await cache.lookUp(Self.key) == nil)
            await cache.record(Self.entry(Self.key))
            #expect(await cache.lookUp(Self.key)?.source == .local)
        }
        #expect(warnings.all.count == 1, "\(warnings.all)")
        #expect(warnings.all.first?.contains("running without the shared cache") == true, "\(warnings.all)")
    }

    @Test("--cache-url takes grpc:// and unix: addresses; anything else is refused")
    func addresses() throws {
        #expect(REAPIBlobStore.isAddress("grpc://127.0.0.1:8980"))
        #expect(REAPIBlobStore.isAddress("unix:/run/casd.sock"))
        #expect(!REAPIBlobStore.isAddress("https://cache.example"))
        #expect(
            try REAPIBlobStore(address: "grpc://cache:8980", instanceName: "main").displayName
                == "grpc://cache:8980 (instance main)")
        #expect(throws: TestCacheError.badURL("grpc://cache")) { try REAPIBlobStore(address: "grpc://cache") }
    }
}
