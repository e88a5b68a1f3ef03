/// The characters of a box or line, as terminal programs draw them.
public struct BorderStyle: Sendable, Hashable {
    /// The horizontal line.
    public var horizontal: Character
    /// The vertical line.
    public var vertical: Character
    /// The top-left corner.
    public var topLeft: Character
    /// The top-right corner.
    public var topRight: Character
    /// The bottom-left corner.
    public var bottomLeft: Character
    /// The bottom-right corner.
    public var bottomRight: Character

    /// Creates a style from its six characters.
    public init(
        horizontal: Character, vertical: Character, topLeft: Character, topRight: Character,
        bottomLeft: Character, bottomRight: Character
    ) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomLeft = bottomLeft
        self.bottomRight = bottomRight
    }

    /// `┌─┐│└┘`
    public static let single = BorderStyle(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘")
    /// `╭─╮│╰╯`
    public static let rounded = BorderStyle(
        horizontal: "─", vertical: "│", topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯")
    /// `╔═╗║╚╝`
    public static let double = BorderStyle(
        horizontal: "═", vertical: "║", topLeft: "╔", topRight: "╗", bottomLeft: "╚", bottomRight: "╝")
    /// `┏━┓┃┗┛`
    public static let heavy = BorderStyle(
        horizontal: "━", vertical: "┃", topLeft: "┏", topRight: "┓", bottomLeft: "┗", bottomRight: "┛")
    /// `+-+|++`, for terminals without box-drawing glyphs.
    public static let ascii = BorderStyle(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+")
}
