import ContentDigest
import Foundation
import SwiftProtobuf

/// Short names for the generated messages of Bazel's Remote Execution API (v2) that the client's
/// callers build and read: the full names are the protobuf packages' (`build.bazel.remote…`).
public enum REAPI {
    /// What to run: a Command's digest, an input root's digest, a timeout.
    public typealias Action = Build_Bazel_Remote_Execution_V2_Action
    /// What a run produced: exit code, output files, standard output and error.
    public typealias ActionResult = Build_Bazel_Remote_Execution_V2_ActionResult
    /// The arguments, environment and declared outputs of an action.
    public typealias Command = Build_Bazel_Remote_Execution_V2_Command
    /// A content address on the wire (see ``BlobDigest``).
    public typealias Digest = Build_Bazel_Remote_Execution_V2_Digest
    /// One folder of a Merkle tree of inputs.
    public typealias Directory = Build_Bazel_Remote_Execution_V2_Directory
    /// A subfolder entry of a ``Directory``.
    public typealias DirectoryNode = Build_Bazel_Remote_Execution_V2_DirectoryNode
    /// A file entry of a ``Directory``.
    public typealias FileNode = Build_Bazel_Remote_Execution_V2_FileNode
    /// A file an action produced, by digest.
    public typealias OutputFile = Build_Bazel_Remote_Execution_V2_OutputFile
    /// What a worker must offer to run an action: named properties, sorted by name.
    public typealias Platform = Build_Bazel_Remote_Execution_V2_Platform
    /// What a server supports (digest functions, execution, batch limits, API versions).
    public typealias ServerCapabilities = Build_Bazel_Remote_Execution_V2_ServerCapabilities
}

/// A blob's content address: the SHA-256 of its bytes, in lowercase hex, and its size. The only
/// digest function the client speaks; ``RemoteExecutionClient/capabilities()`` checks the
/// server offers it.
public struct BlobDigest: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The SHA-256 of the bytes, 64 lowercase hex digits.
    public let hash: String
    /// The number of bytes.
    public let size: Int64

    /// A digest as a server or a caller names it (not checked against any bytes).
    public init(hash: String, size: Int64) {
        self.hash = hash
        self.size = size
    }

    /// The digest of `data`.
    public init(of data: Data) {
        self.init(hash: SHA256.hex(data), size: Int64(data.count))
    }

    /// The digest of a message as it is stored: its binary serialization. Fields are written in
    /// field-number order and REAPI's messages have no maps, so equal messages have equal bytes.
    public static func of(_ message: some SwiftProtobuf.Message) throws -> (digest: BlobDigest, bytes: Data) {
        let bytes: Data = try message.serializedBytes()
        return (BlobDigest(of: bytes), bytes)
    }

    /// The digest a message names.
    public init(_ digest: REAPI.Digest) {
        self.init(hash: digest.hash, size: digest.sizeBytes)
    }

    /// The message form, for requests.
    public var message: REAPI.Digest {
        var digest = REAPI.Digest()
        digest.hash = hash
        digest.sizeBytes = size
        return digest
    }

    /// `HASH/SIZE`, as REAPI's resource names write a digest.
    public var description: String { "\(hash)/\(size)" }

    /// Ordered by hash, then size: for stable request and error contents.
    public static func < (lhs: BlobDigest, rhs: BlobDigest) -> Bool {
        (lhs.hash, lhs.size) < (rhs.hash, rhs.size)
    }
}
