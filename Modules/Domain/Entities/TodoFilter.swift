/// Which todos a list shows.
public enum TodoFilter: String, CaseIterable, Codable, Sendable {
    /// Every todo.
    case all
    /// The todos not done yet.
    case active
    /// The todos done.
    case done

    /// Whether `todo` passes the filter.
    public func includes(_ todo: Todo) -> Bool {
        switch self {
        case .all: true
        case .active: !todo.isDone
        case .done: todo.isDone
        }
    }
}
