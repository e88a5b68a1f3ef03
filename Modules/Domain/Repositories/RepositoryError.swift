/// Why stored data could not be read or written. The reason is for people; Data keeps the
/// underlying error's details in it.
public enum RepositoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was stored could not be read. The reason says what happened to it: a damaged part
    /// is set aside and named with its copy; a file the process may not open is left as it is.
    case unreadable(reason: String)
    /// A change could not be written.
    case unwritable(reason: String)
    /// Another process (another copy of the app, say) kept the stored data at `location`, a
    /// folder, to itself for all of `waited`, the longest a read or write waits for it. Nothing
    /// was read or changed: what is stored is intact, and trying again once that process is
    /// done works.
    case inUse(location: String, waited: Duration)

    /// A sentence for the status line.
    public var description: String {
        switch self {
        case .unreadable(let reason): "stored data could not be read (\(reason))"
        case .unwritable(let reason): "could not write (\(reason))"
        case .inUse(let location, let waited):
            "another process kept \(location) in use for \(waited); nothing was changed"
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
            case .inUse: error.description
            }
        }
        self = .unreadable(reason: reasons.joined(separator: " "))
    }
}
