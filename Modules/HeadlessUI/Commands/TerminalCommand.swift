/// A line typed at a terminal app's prompt: a name and what follows it. It travels a responder
/// chain from the controller on screen up to the window's root, as a key command does in UIKit
/// (see ``ViewController/handle(_:)`` and ``Window/perform(_:)``).
///
/// ```swift
/// let command = TerminalCommand("edit 2 buy oat milk")
/// command?.name          // "edit"
/// command?.arguments     // ["2", "buy", "oat", "milk"]
/// command?.text(after: 1) // "buy oat milk"
/// ```
public struct TerminalCommand: Sendable, Hashable, CustomStringConvertible {
    /// The first word, lowercased.
    public let name: String
    /// The words after the name, split at runs of whitespace.
    public let arguments: [String]
    /// The line as typed, trimmed.
    public let line: String

    /// Parses `line`; `nil` when it holds nothing but whitespace.
    public init?(_ line: String) {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let first = words.first else { return nil }
        name = first.lowercased()
        arguments = Array(words.dropFirst())
        self.line = words.joined(separator: " ")
    }

    /// The arguments from index `index` on, joined by single spaces: a title after a row number.
    public func text(after index: Int = 0) -> String {
        arguments.dropFirst(index).joined(separator: " ")
    }

    /// The line.
    public var description: String { line }
}

/// What a responder did with a ``TerminalCommand``.
public enum CommandResult: Sendable, Equatable {
    /// Done; the chain stops.
    case handled
    /// Not this responder's command; the next responder gets it.
    case notHandled
    /// This responder's command, but it cannot be done; the reason is for the status line.
    case failed(String)
}
