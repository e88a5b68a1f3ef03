import Foundation

/// A tree of files to upload as an action's input root: REAPI's Merkle tree of `Directory`
/// messages, each naming its files and subfolders by digest, sorted by name as the protocol
/// asks, so the same files and folders always give the same root digest.
public struct InputTree: Sendable {
    /// A tree REAPI cannot hold: a name that is both a file and a folder, or a path with a `.`
    /// or `..` in it.
    public struct InvalidTree: Error, CustomStringConvertible {
        /// The path, relative to the root.
        public var path: String
        /// What is wrong with it.
        public var reason: String
        /// The path and the reason, in a sentence.
        public var description: String { "the input root cannot hold \(path): \(reason)" }
    }

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
    /// Folders that are in the tree even with no file under them (a place the run writes to),
    /// by path relative to the root.
    public var folders: Set<String>

    /// A tree of `files`, by path, and of `folders`.
    public init(files: [String: File] = [:], folders: Set<String> = []) {
        self.files = files
        self.folders = folders
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
        let entries: [Entry] =
            files.map { Entry(components: Self.components($0.key), file: $0.value) }
            + folders.map { Entry(components: Self.components($0), file: nil) }
        for entry in entries where entry.components.contains(where: { $0 == "." || $0 == ".." }) {
            throw InvalidTree(path: entry.components.joined(separator: "/"), reason: "it holds a . or ..")
        }
        let root = try directory(entries, at: "", blobs: &blobs)
        return (root, blobs)
    }

    /// A file, or with no file a folder, at a path split at its `/`s.
    private struct Entry {
        var components: [String]
        var file: File?
    }

    private static func components(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }

    /// The `Directory` of `entries` (paths relative to it), at `path` from the root.
    private func directory(_ entries: [Entry], at path: String, blobs: inout [BlobDigest: BlobSource]) throws
        -> BlobDigest
    {
        var message = REAPI.Directory()
        var subfolders: [String: [Entry]] = [:]
        for entry in entries {
            guard let name = entry.components.first else { continue }
            if entry.components.count == 1, entry.file == nil {
                // A folder of its own: there, whatever else is under it.
                subfolders[name, default: []] += []
            } else if entry.components.count == 1, let file = entry.file {
                // Equal files under two names are one blob, read from either.
                if blobs[file.digest] == nil { blobs[file.digest] = file.source }
                var node = REAPI.FileNode()
                node.name = name
                node.digest = file.digest.message
                node.isExecutable = file.isExecutable
                message.files.append(node)
            } else {
                subfolders[name, default: []].append(
                    Entry(components: Array(entry.components.dropFirst()), file: entry.file))
            }
        }
        for (name, children) in subfolders {
            let subpath = path.isEmpty ? name : path + "/" + name
            // REAPI wants each name once in a Directory: a file and a folder cannot share one.
            if message.files.contains(where: { $0.name == name }) {
                throw InvalidTree(path: subpath, reason: "it is both a file and a folder")
            }
            var node = REAPI.DirectoryNode()
            node.name = name
            node.digest = try directory(children, at: subpath, blobs: &blobs).message
            message.directories.append(node)
        }
        message.files.sort { Self.precedes($0.name, $1.name) }
        message.directories.sort { Self.precedes($0.name, $1.name) }
        let (digest, bytes) = try BlobDigest.of(message)
        blobs[digest] = .bytes(bytes)
        return digest
    }
}
