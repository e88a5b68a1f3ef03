import Foundation

/// Where a blob's bytes are when it is uploaded: in memory, or in a file read only as it is
/// sent, so a test bundle of hundreds of megabytes is never held whole nor hashed twice.
public enum BlobSource: Sendable, Equatable {
    /// Bytes in memory (a `Directory`, a `Command`, a small input).
    case bytes(Data)
    /// The file at this absolute path, whose digest was taken when the input tree was made
    /// (``FileDigests``). A file that changed since is caught by its size here and by the
    /// server, which checks every upload against its digest.
    case file(path: String)
}
