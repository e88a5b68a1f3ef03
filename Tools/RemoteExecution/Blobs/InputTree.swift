import Foundation

/// A tree of files to upload as an action's input root: REAPI's Merkle tree of `Directory`
/// messages, each naming its files and subfolders by digest, sorted by name as the protocol
/// asks, so the same files always give the same root digest.
public struct InputTree: Sendable {
    /// A file of the tree: its digest, where its bytes are, and whether it may be executed.
    public struct File: Sendable {
        /// The digest of the file's bytes.
        public var digest: BlobDigest
        /// Where the bytes are read from when the file is uploaded.
        public var source: BlobSource
        /// Whether the file gets its executable bit in the input root.
        public var isExecutable: Bool

        /// A file of `contents`, executable or not.
        public init(_ contents: Data, isExecutable: Bool = false) {
            digest = BlobDigest(of: contents)
            source = .bytes(contents)
            self.isExecutable = isExecutable
        }

        /// The file at `path` whose digest is already known (``FileDigests``): its bytes are
        /// read only when it is uploaded.
        public init(path: String, digest: BlobDigest, isExecutable: Bool) {
            self.digest = digest
            source = .file(path: path)
            self.isExecutable = isExecutable
        }
    }

    /// Files by path relative to the root, with `/` between folders (`bin/tool`).
    public var files: [String: File]

    /// A tree of `files`, by path.
    public init(files: [String: File] = [:]) {
        self.files = files
    }

    /// REAPI's order for names and paths: by their UTF-8 bytes (Swift's `<` compares canonical
    /// forms, which is another order for some names).
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// The root directory's digest and every blob of the tree (the files and the `Directory`
    /// messages), by digest.
    public func merkle() throws -> (root: BlobDigest, blobs: [BlobDigest: BlobSource]) {
        var blobs: [BlobDigest: BlobSource] = [:]
        let root = try directory(
            files.map { (components: $0.key.split(separator: "/").map(String.init), file: $0.value) },
            blobs: &blobs)
        return (root, blobs)
    }

    private func directory(
        _ entries: [(components: [String], file: File)], blobs: inout [BlobDigest: BlobSource]
    ) throws -> BlobDigest {
        var message = REAPI.Directory()
        var subfolders: [String: [(components: [String], file: File)]] = [:]
        for entry in entries {
            guard let name = entry.components.first else { continue }
            if entry.components.count == 1 {
                // Equal files under two names are one blob, read from either.
                if blobs[entry.file.digest] == nil { blobs[entry.file.digest] = entry.file.source }
                var node = REAPI.FileNode()
                node.name = name
                node.digest = entry.file.digest.message
                node.isExecutable = entry.file.isExecutable
                message.files.append(node)
            } else {
                subfolders[name, default: []].append((Array(entry.components.dropFirst()), entry.file))
            }
        }
        for (name, children) in subfolders {
            var node = REAPI.DirectoryNode()
            node.name = name
            node.digest = try directory(children, blobs: &blobs).message
            message.directories.append(node)
        }
        message.files.sort { Self.precedes($0.name, $1.name) }
        message.directories.sort { Self.precedes($0.name, $1.name) }
        let (digest, bytes) = try BlobDigest.of(message)
        blobs[digest] = .bytes(bytes)
        return digest
    }
}
