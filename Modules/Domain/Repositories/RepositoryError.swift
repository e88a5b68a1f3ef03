/// Why stored data could not be read or written. The reason is for people; Data keeps the
/// underlying error's details in it.
public enum RepositoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was stored could not be read; it was set aside, and the app starts without it.
    case unreadable(reason: String)
    /// A change could not be written.
    case unwritable(reason: String)

    /// A sentence for the status line.
    public var description: String {
        switch self {
        case .unreadable(let reason): "stored data was unreadable and set aside (\(reason))"
        case .unwritable(let reason): "could not write (\(reason))"
        }
    }
}

extension RepositoryError {
    /// One error for everything in `errors`: the only one, or an ``unreadable(reason:)`` that
    /// gives every reason; `nil` when there is none.
    init?(combining errors: [RepositoryError]) {
        guard let first = errors.first else { return nil }
        guard errors.count > 1 else {
            self = first
            return
        }
        let reasons = errors.map { error in
            switch error {
            case .unreadable(let reason), .unwritable(let reason): reason
            }
        }
        self = .unreadable(reason: reasons.joined(separator: " "))
    }
}
