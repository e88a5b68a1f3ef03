import Foundation
import Synchronization

/// Where a store keeps its encoded envelopes: files, or a UserDefaults suite. Called under the
/// store's lock.
protocol BlobBackend: Sendable {
    func readBlob(named name: String) throws -> Data?
    func writeBlob(_ blob: Data, named name: String) throws
    func removeBlob(named name: String) throws
    /// Turns a blob that is not an envelope into the error to throw (and may quarantine it).
    func unreadableBlob(named name: String, underlying: any Error) throws -> StorageError
}

/// The logic that ``PlistFileStore`` and ``UserDefaultsStore`` share: key validation, one lock
/// per store, envelopes with version and expiry, and change streams.
final class EnvelopeStore<Backend: BlobBackend>: Sendable {
    let backend: Backend
    private let codec: EnvelopeCodec
    private let lock = Mutex(())
    private let broadcaster = ChangeBroadcaster()

    init(backend: Backend, format: PropertyListSerialization.PropertyListFormat) {
        self.backend = backend
        self.codec = EnvelopeCodec(format: format)
    }

    func save<Value>(_ value: Value, for key: StorageKey<Value>, expiry: Expiry) throws {
        try key.validate()
        let blob = try codec.encode(value, for: key, expiresAt: expiry.date(from: Date()))
        try lock.withLock { _ in
            try backend.writeBlob(blob, named: key.name)
            broadcaster.publish(value, for: key.name)
        }
    }

    func entry<Value>(for key: StorageKey<Value>) throws -> StoredEntry<Value>? {
        try key.validate()
        return try lock.withLock { _ in try entryLocked(key) }
    }

    func remove<Value>(_ key: StorageKey<Value>) throws {
        try key.validate()
        try lock.withLock { _ in
            try backend.removeBlob(named: key.name)
            broadcaster.publish(nil, for: key.name)
        }
    }

    func changes<Value>(for key: StorageKey<Value>) -> AsyncStream<Value?> {
        // Under the lock, so no change can slip between the current value and the subscription.
        lock.withLock { _ in broadcaster.stream(for: key.name) { (try? entryLocked(key))?.value } }
    }

    /// Runs `body` under the store's lock, for backend operations outside the typed API.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock { _ in try body() }
    }

    private func entryLocked<Value>(_ key: StorageKey<Value>) throws -> StoredEntry<Value>? {
        guard let blob = try backend.readBlob(named: key.name) else { return nil }
        do {
            switch try codec.decode(blob, for: key) {
            case .value(let value, let expiresAt):
                return StoredEntry(value: value, expiresAt: expiresAt)
            case .expired:
                try backend.removeBlob(named: key.name)
                return nil
            }
        } catch let error as NotAnEnvelope {
            throw try backend.unreadableBlob(named: key.name, underlying: error.underlying)
        }
    }
}
