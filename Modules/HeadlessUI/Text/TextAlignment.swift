/// Where a line of text sits in the width it is given, as `NSTextAlignment`.
public enum TextAlignment: Sendable, Hashable {
    /// Against the left edge.
    case left
    /// Centred; an odd leftover cell goes to the right.
    case center
    /// Against the right edge.
    case right
    /// Against the leading edge: left in left-to-right layouts, right in right-to-left ones.
    case natural
}

/// What a label does with text that does not fit, as `NSLineBreakMode`.
public enum LineBreakMode: Sendable, Hashable {
    /// Wraps at spaces; a word longer than the line is broken between characters.
    case byWordWrapping
    /// Wraps between any two characters.
    case byCharWrapping
    /// Cuts the text at the edge.
    case byClipping
    /// Replaces the start of the line with `…`.
    case byTruncatingHead
    /// Replaces the end of the line with `…`.
    case byTruncatingTail
    /// Replaces the middle of the line with `…`.
    case byTruncatingMiddle
}
