import Foundation

/// Every value in one property-list file, a dictionary from key to value: a
/// ``PlistFileStore`` with ``PlistFileStore/Layout/singleFile(name:)``, and a UserDefaults
/// suite's file. A change reads the file, changes one entry and writes the file anew, all under
/// the folder's lock, so processes writing different keys at once keep each other's values.
struct PropertyListTable: BlobBackend {
    let url: URL
    let format: PropertyListSerialization.PropertyListFormat
    let syncsDirectory: Bool
    let lock: FolderLock

    /// What the file holds.
    private enum Contents {
        case absent
        case table([String: Any], FileIdentity)
        case damaged(FileIdentity, DamageReason)
    }

    func file(for name: String) -> URL { url }

    func read(_ name: String) throws -> StoredBlob? {
        guard let (table, identity) = try table(holdingLock: false) else { return nil }
        return try table[name].map { try blob(of: $0, file: identity) }
    }

    func write(_ blob: Data, named name: String) throws {
        try change { table in
            table[name] = blob
            return true
        }
    }

    func remove(named name: String) throws {
        try change { $0.removeValue(forKey: name) != nil }
    }

    func remove(_ blob: StoredBlob, named name: String) throws -> Bool {
        try change { table in
            guard try table[name].map({ try self.blob(of: $0, file: blob.file).data }) == blob.data else {
                return false
            }
            table.removeValue(forKey: name)
            return true
        }
    }

    func setAside(_ blob: StoredBlob, named name: String) throws -> URL? {
        try lock.withLock {
            guard case .table(var table, let identity) = try contents(),
                try table[name].map({ try self.blob(of: $0, file: identity).data }) == blob.data,
                let aside = try SetAside.copy(url, ifStill: identity)
            else { return nil }
            table.removeValue(forKey: name)
            try write(table)
            return aside
        }
    }

    func removeTemporaryFiles() throws {
        _ = try lock.withLockIfFree {
            try AtomicFile.removeTemporaryFiles(in: url.deletingLastPathComponent()) {
                $0 == url.lastPathComponent
            }
        }
    }

    /// A raw property-list value under `name`, as UserDefaults' own API stores it.
    func rawValue(named name: String) throws -> Any? {
        try table(holdingLock: false)?.entries[name]
    }

    /// Stores a raw property-list value under `name`.
    func setRawValue(_ value: Any, named name: String) throws {
        try change { table in
            table[name] = value
            return true
        }
    }

    /// Reads the table, applies `edit` and, when it says it changed something, writes the table
    /// back, all under the folder's lock; returns what `edit` said. A damaged file is set aside
    /// and thrown; the change is not made, and making it again writes a fresh file.
    @discardableResult
    private func change(_ edit: (inout [String: Any]) throws -> Bool) throws -> Bool {
        try lock.withLock {
            var table = try table(holdingLock: true)?.entries ?? [:]
            guard try edit(&table) else { return false }
            try write(table)
            return true
        }
    }

    /// The table as stored, or `nil` when there is no file. A file damaged as a whole is set
    /// aside (taking the lock unless the caller holds it) and thrown.
    private func table(holdingLock: Bool) throws -> (entries: [String: Any], file: FileIdentity)? {
        for _ in 0..<FileIO.rereads {
            switch try contents() {
            case .absent:
                return nil
            case .table(let table, let identity):
                return (table, identity)
            case .damaged(let identity, let reason):
                if holdingLock, let aside = try SetAside.move(url, ifStill: identity) {
                    throw StorageError.damaged(file: url, setAsideAt: aside, reason: reason)
                }
                if !holdingLock, let aside = try lock.withLock({ try setAsideIfStillDamaged(identity) }) {
                    throw StorageError.damaged(file: url, setAsideAt: aside, reason: reason)
                }
            }
        }
        throw StorageError.keptChanging(file: url, reads: FileIO.rereads)
    }

    /// Sets the file aside if, read again under the lock, it is still the damaged file read
    /// before. The same identity is not enough on its own: a file that replaced it since may have
    /// been given its inode number.
    private func setAsideIfStillDamaged(_ identity: FileIdentity) throws -> URL? {
        guard case .damaged(let current, _) = try contents(), current == identity else { return nil }
        return try SetAside.move(url, ifStill: identity)
    }

    private func contents() throws -> Contents {
        switch try FileIO.read(url) {
        case .absent:
            return .absent
        case .notAFile(let identity):
            return .damaged(identity, .notAFile)
        case .file(let data, let identity):
            do {
                let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                guard let table = plist as? [String: Any] else {
                    throw CocoaError(.propertyListReadCorrupt)
                }
                return .table(table, identity)
            } catch {
                return .damaged(identity, .unreadableBytes(underlying: error))
            }
        }
    }

    private func write(_ table: [String: Any]) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: table, format: format, options: 0)
        try AtomicFile.write(data, to: url, syncingDirectory: syncsDirectory)
    }

    /// An entry as a blob: the bytes of a stored envelope, or a raw value serialized so that it
    /// can be compared.
    private func blob(of entry: Any, file: FileIdentity) throws -> StoredBlob {
        if let data = entry as? Data { return StoredBlob(data: data, file: file) }
        let data = try PropertyListSerialization.data(fromPropertyList: entry, format: .binary, options: 0)
        return StoredBlob(data: data, file: file, rawPropertyListType: String(describing: type(of: entry)))
    }
}
