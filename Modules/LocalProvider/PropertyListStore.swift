import Foundation

/// What ``PlistFileStore`` and ``UserDefaultsStore`` share: values as property-list envelopes
/// that carry their schema version and expiry, key validation, change streams, and the rules
/// for what cannot be read.
///
/// - A stored value that cannot be read as its key's value — bytes that are not a property
///   list, a value of another type, a schema version the key has no migration for, a folder or
///   a FIFO where the file should be — is set aside, never deleted or written over, and reported
///   as ``StorageError/damaged(file:setAsideAt:reason:)``; the key then reads as absent, and
///   every other value stays readable.
/// - A symbolic link where the file should be (a dotfile manager's) is read through. Saving puts
///   a file of the folder's own in its place, by a rename; removing or setting aside removes or
///   moves the link. The file it leads to is never written, moved or deleted. A link that leads
///   nowhere reads as absent.
/// - A file that cannot be opened (no permission, a folder the process may not enter) is a
///   ``StorageError/fileSystem(operation:path:errno:)`` and is left alone.
/// - An expired value reads as absent and is removed — only if it is still the value that was
///   read, so a fresh value another process saved meanwhile stays. A file that another process
///   replaces after every read is read a bounded number of times, then reported as
///   ``StorageError/keptChanging(file:reads:)``.
public class PropertyListStore: LocalStore, @unchecked Sendable {
    // @unchecked: not final, so that the two stores share this body. Every stored property here
    // and in the subclasses is an immutable `let` of a Sendable type.
    let backend: any BlobBackend
    private let codec: EnvelopeCodec
    private let io = IOQueue(label: "PropertyListStore")
    private let broadcaster = ChangeBroadcaster()
    private let now: @Sendable () -> Date

    init(
        backend: any BlobBackend, format: PropertyListSerialization.PropertyListFormat,
        clock: @escaping @Sendable () -> Date
    ) throws {
        self.backend = backend
        self.codec = EnvelopeCodec(format: format)
        self.now = clock
        try backend.removeTemporaryFiles()
    }

    /// Stores `value` under `key`, replacing what was there. Once this returns, the value
    /// survives the process being killed.
    public func save<Value>(_ value: Value, for key: StorageKey<Value>, expiry: Expiry) throws {
        try key.validate()
        let blob = try codec.encode(
            value, for: key, expiresAt: try expiry.checkedDate(from: now(), key: key.name))
        // Published under the folder's lock, so the streams see changes in the order they were
        // made. No in-process lock: another thread waits for the folder's lock as another
        // process does, and a thread that only reads never waits for a writer.
        try backend.lock.withLock {
            try backend.write(blob, named: key.name)
            broadcaster.publish(value, for: key.name)
        }
    }

    /// The value under `key`; `nil` if there is none or it has expired.
    public func load<Value>(_ key: StorageKey<Value>) throws -> Value? {
        try entry(for: key)?.value
    }

    /// The value under `key` with its expiry date.
    public func entry<Value>(for key: StorageKey<Value>) throws -> StoredEntry<Value>? {
        try key.validate()
        return try readEntry(key)
    }

    /// Removes the value under `key`; removing an absent key is not an error.
    public func remove<Value>(_ key: StorageKey<Value>) throws {
        try key.validate()
        try backend.lock.withLock {
            try backend.remove(named: key.name)
            broadcaster.publish(nil, for: key.name)
        }
    }

    /// Stores `value` under `key` as the synchronous form does, with the file work on the
    /// store's own queue: no thread is held meanwhile, and cancelling the task while another
    /// process holds the folder's lock ends the wait with `CancellationError`, nothing saved.
    nonisolated(nonsending) public func save<Value>(
        _ value: Value, for key: StorageKey<Value>, expiry: Expiry
    ) async throws {
        try await io.run { try self.save(value, for: key, expiry: expiry) }
    }

    /// The value under `key`, read on the store's own queue.
    nonisolated(nonsending) public func load<Value>(_ key: StorageKey<Value>) async throws -> Value? {
        try await io.run { try self.load(key) }
    }

    /// The value under `key` with its expiry date, read on the store's own queue.
    nonisolated(nonsending) public func entry<Value>(for key: StorageKey<Value>) async throws -> StoredEntry<
        Value
    >? {
        try await io.run { try self.entry(for: key) }
    }

    /// Removes the value under `key` on the store's own queue; cancelled as `save` is.
    nonisolated(nonsending) public func remove<Value>(_ key: StorageKey<Value>) async throws {
        try await io.run { try self.remove(key) }
    }

    /// The value now, then after every change made through this store (`nil` once removed).
    ///
    /// Returns at once: the current value is read on the store's own queue, so that subscribing
    /// from async code never waits for the disk on a thread of the cooperative pool. A change made
    /// meanwhile follows it. A value that cannot be read starts the stream as `nil`; `load`
    /// reports why.
    public func changes<Value>(for key: StorageKey<Value>) -> AsyncStream<Value?> {
        broadcaster.stream(for: key.name) { deliverFirst in
            io.start { deliverFirst(try? self.readEntry(key)?.value) }
        }
    }

    private func readEntry<Value>(_ key: StorageKey<Value>) throws -> StoredEntry<Value>? {
        // Another process may replace the value between the read and a removal or a set-aside;
        // then both are skipped and the new value is read, as long as that settles.
        for _ in 0..<FileIO.rereads {
            guard let blob = try backend.read(key.name) else { return nil }
            let decoded: DecodedEntry<Value>
            if let rawType = blob.rawPropertyListType {
                decoded = .damaged(.wrongType(key: key.name, underlying: RawPropertyList(type: rawType)))
            } else {
                decoded = codec.decode(blob.data, for: key, now: now())
            }
            switch decoded {
            case .value(let value, let expiresAt, _):
                return StoredEntry(value: value, expiresAt: expiresAt)
            case .expired:
                if try backend.remove(blob, named: key.name) { return nil }
            case .damaged(let reason):
                if let aside = try backend.setAside(blob, named: key.name) {
                    throw StorageError.damaged(
                        file: backend.file(for: key.name), setAsideAt: aside, reason: reason)
                }
            }
        }
        throw StorageError.keptChanging(file: backend.file(for: key.name), reads: FileIO.rereads)
    }
}

/// A value stored through UserDefaults' own API, not by a store: no key's value.
struct RawPropertyList: Error, CustomStringConvertible {
    var type: String
    var description: String { "a raw \(type) stored without a schema version" }
}
