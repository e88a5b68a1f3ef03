import Foundation

/// Envelopes in files, one per key: `<root>/<key>.plist`.
struct FilePerKeyBlobs: BlobBackend {
    let root: URL
    let syncsDirectory: Bool
    let lock: FolderLock

    func file(for name: String) -> URL {
        root.appendingPathComponent("\(name).plist", isDirectory: false)
    }

    func read(_ name: String) throws -> StoredBlob? {
        let file = file(for: name)
        for _ in 0..<FileIO.rereads {
            switch try FileIO.read(file) {
            case .absent:
                return nil
            case .file(let data, let identity):
                return StoredBlob(data: data, file: identity)
            case .notAFile(let identity):
                let aside = try lock.withLock { () throws -> URL? in
                    // Read again under the lock: set aside only what is still not a file.
                    guard case .notAFile(let current) = try FileIO.read(file), current == identity else {
                        return nil
                    }
                    return try SetAside.move(file, ifStill: identity)
                }
                if let aside { throw StorageError.damaged(file: file, setAsideAt: aside, reason: .notAFile) }
            }
        }
        throw StorageError.keptChanging(file: file, reads: FileIO.rereads)
    }

    func write(_ blob: Data, named name: String) throws {
        try lock.withLock {
            try AtomicFile.write(blob, to: file(for: name), syncingDirectory: syncsDirectory)
        }
    }

    func remove(named name: String) throws {
        try lock.withLock {
            try FileIO.remove(file(for: name))
            if syncsDirectory { try FileIO.syncDirectory(root) }
        }
    }

    func remove(_ blob: StoredBlob, named name: String) throws -> Bool {
        let file = file(for: name)
        return try lock.withLock {
            guard try FileIO.holds(file, blob) else { return false }
            try FileIO.remove(file)
            if syncsDirectory { try FileIO.syncDirectory(root) }
            return true
        }
    }

    func setAside(_ blob: StoredBlob, named name: String) throws -> URL? {
        let file = file(for: name)
        return try lock.withLock {
            guard try FileIO.holds(file, blob) else { return nil }
            return try SetAside.move(file, ifStill: blob.file)
        }
    }

    func removeTemporaryFiles() throws {
        _ = try lock.withLockIfFree {
            try AtomicFile.removeTemporaryFiles(in: root) { $0.hasSuffix(".plist") }
        }
    }
}
