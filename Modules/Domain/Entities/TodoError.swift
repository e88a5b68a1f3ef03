import Foundation

/// Why a change to the todos was refused.
public enum TodoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The title is empty once trimmed.
    case emptyTitle
    /// The title is longer than `limit` characters.
    case titleTooLong(limit: Int)
    /// No todo has this id (it was deleted meanwhile).
    case notFound(UUID)
    /// The change was made but could not be saved; it stays in memory.
    case notSaved(RepositoryError)

    /// A sentence for the status line.
    public var description: String {
        switch self {
        case .emptyTitle: "A todo needs a title."
        case .titleTooLong(let limit): "A title can be at most \(limit) characters."
        case .notFound: "That todo is gone."
        case .notSaved(let error): "Not saved: \(error)"
        }
    }
}
