/// The person using the app.
public struct Profile: Hashable, Codable, Sendable {
    /// A display name; may be empty.
    public var name: String
    /// A few words about them; may be empty.
    public var bio: String

    /// A profile; either field may stay empty.
    public init(name: String = "", bio: String = "") {
        self.name = name
        self.bio = bio
    }
}
