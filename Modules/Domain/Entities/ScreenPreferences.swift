/// How the screens were left, kept between launches of a flavor: the list's filter and the tab
/// on screen.
public struct ScreenPreferences: Hashable, Codable, Sendable {
    /// The todo list's filter.
    public var filter: TodoFilter
    /// The title of the selected tab, or `nil` for the first.
    public var tab: String?

    /// Preferences; the defaults are what a first launch shows.
    public init(filter: TodoFilter = .all, tab: String? = nil) {
        self.filter = filter
        self.tab = tab
    }
}
