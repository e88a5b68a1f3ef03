import Foundation

/// A typed storage key: its name, the type of its value and the schema version of that value.
///
/// ```swift
/// extension StorageKey where Value == [Todo] {
///     static let todos = StorageKey("todos", version: 2) { storedVersion, data in
///         // Version 1 stored titles only.
///         let titles = try PropertyListDecoder().decode([String].self, from: data)
///         return titles.map { Todo(title: $0) }
///     }
/// }
///
/// try store.save(todos, for: .todos)
/// let todos: [Todo]? = try store.load(.todos)   // no cast
/// ```
///
/// A name is 1 to 128 characters of `A–Z a–z 0–9 . _ -`, and does not start with a dot. Names
/// are checked when the key is used; a bad one is a ``StorageError/invalidKey(_:reason:)``.
public struct StorageKey<Value: Codable & Sendable>: Sendable, Hashable, CustomStringConvertible {
    /// Turns a value stored under an older schema version into the current one.
    ///
    /// - Parameters:
    ///   - storedVersion: The version the value was stored with.
    ///   - data: The old value, as a property list that `PropertyListDecoder` reads.
    public typealias Migration = @Sendable (_ storedVersion: Int, _ data: Data) throws -> Value

    /// The key's name, also its file name in a ``PlistFileStore``.
    public let name: String
    /// The schema version of the value; stored with it.
    public let version: Int
    let migration: Migration?

    /// Creates a key.
    ///
    /// - Parameters:
    ///   - name: The name; see the type's rules.
    ///   - version: The value's schema version. Bump it when `Value`'s shape changes.
    ///   - migrate: Converts values stored with another version. Without it, such values are a
    ///     ``StorageError/versionMismatch(key:stored:expected:)``.
    public init(_ name: String, version: Int = 1, migrate: Migration? = nil) {
        self.name = name
        self.version = version
        self.migration = migrate
    }

    /// The longest name a key may have.
    public static var maximumNameLength: Int { 128 }

    /// Checks the name against the rules.
    ///
    /// - Throws: ``StorageError/invalidKey(_:reason:)``.
    public func validate() throws {
        if let reason = StorageKeyRules.problem(with: name) {
            throw StorageError.invalidKey(name, reason: reason)
        }
    }

    /// The name.
    public var description: String { name }

    /// Keys are equal when their names and versions are.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.version == rhs.version
    }

    /// Hashes the name and version.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(version)
    }
}

/// Why a key name was refused.
public enum InvalidKeyReason: Sendable, Equatable, CustomStringConvertible {
    /// The name is empty.
    case empty
    /// The name is longer than ``StorageKey/maximumNameLength``.
    case tooLong(length: Int)
    /// The name tries to leave its directory (`..`, `/`).
    case pathTraversal
    /// The name holds a character outside `A–Z a–z 0–9 . _ -`, or starts with a dot.
    case invalidCharacter(Character)

    /// A phrase for error messages.
    public var description: String {
        switch self {
        case .empty: "it is empty"
        case .tooLong(let length): "it is \(length) characters long; the limit is 128"
        case .pathTraversal: "it contains '..' or '/', which would leave the storage folder"
        case .invalidCharacter(let character): "it contains '\(character)'; use A-Z a-z 0-9 . _ -"
        }
    }
}

enum StorageKeyRules {
    static func problem(with name: String) -> InvalidKeyReason? {
        if name.isEmpty { return .empty }
        if name.count > 128 { return .tooLong(length: name.count) }
        if name.contains("..") || name.contains("/") || name.contains("\\") { return .pathTraversal }
        if name.hasPrefix(".") { return .invalidCharacter(".") }
        for character in name {
            guard character.isASCII, character.isLetter || character.isNumber || "._-".contains(character)
            else {
                return .invalidCharacter(character)
            }
        }
        return nil
    }
}
