/// What a screen tells the person about what they just did: one sentence, and how it went. The
/// screens' state machines hold it without knowing where it is shown (the TodoApp's status
/// line), so they need no UI module.
public struct Notice: Hashable, Sendable, CustomStringConvertible {
    /// How the notice reads.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A neutral note: what is shown now, what there is to do.
        case info
        /// Something was done.
        case success
        /// Something could not be done; the text says why.
        case failure
    }

    /// One sentence.
    public var text: String
    /// How it reads.
    public var kind: Kind

    /// A notice of `kind`.
    public init(_ text: String, kind: Kind = .info) {
        self.text = text
        self.kind = kind
    }

    /// A notice saying something was done.
    public static func success(_ text: String) -> Notice { Notice(text, kind: .success) }
    /// A notice saying why something could not be done.
    public static func failure(_ text: String) -> Notice { Notice(text, kind: .failure) }

    /// The text alone, without its kind.
    public var description: String { text }
}
