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
