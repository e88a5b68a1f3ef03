import Foundation

/// One thing to do.
public struct Todo: Identifiable, Hashable, Codable, Sendable {
    /// Stable across edits and relaunches.
    public var id: UUID
    /// What to do; never empty (see ``TodoTitle``).
    public var title: String
    /// Whether it is done: shown ticked, hidden by ``TodoFilter/active``, and removed by
    /// ``TodoList/clearingCompleted()``.
    public var isDone: Bool
    /// When it was added.
    public var createdAt: Date

    /// A todo titled `title` as given (``TodoList/adding(title:now:)`` checks a title a person
    /// typed), not done and added now unless said otherwise.
    public init(id: UUID = UUID(), title: String, isDone: Bool = false, createdAt: Date = Date()) {
        self.id = id
        self.title = title
        self.isDone = isDone
        self.createdAt = createdAt
    }
}

extension Todo {
    private enum CodingKeys: String, CodingKey {
        case id, title, isDone, createdAt
    }

    /// Decodes a todo; `createdAt` is seconds since 2001, as ``encode(to:)`` writes it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        isDone = try container.decode(Bool.self, forKey: .isDone)
        createdAt = Date(
            timeIntervalSinceReferenceDate: try container.decode(Double.self, forKey: .createdAt))
    }

    /// Encodes `createdAt` as a number: XML property lists keep dates to the whole second only,
    /// and a todo must read back equal to what was saved.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(isDone, forKey: .isDone)
        try container.encode(createdAt.timeIntervalSinceReferenceDate, forKey: .createdAt)
    }
}
