import HeadlessUI
import TerminalCore

/// The Profile tab's commands, each declared once: the tab makes its key commands from these,
/// and an app reads them to list every screen's commands in its help and to say where a
/// command typed on another screen belongs.
public enum ProfileCommands {
    static let refresh = KeyCommand.Declaration(
        "Refresh", keys: [KeyPress("r")], typed: "refresh", help: "Fetch another photo")
    static let favorite = KeyCommand.Declaration(
        "Favourite", keys: [KeyPress("f")], typed: "fav", help: "Keep the photo as a favourite, or drop it")
    static let favorites = KeyCommand.Declaration(
        "Favourites", keys: [KeyPress("v")], typed: "favs", help: "Browse the favourites (↑/↓, Esc)")
    static let name = KeyCommand.Declaration(
        "Name", keys: [KeyPress("e")], typed: "name", usage: "name TEXT", help: "Set your name")
    static let bio = KeyCommand.Declaration(
        "Bio", keys: [KeyPress("b")], typed: "bio", usage: "bio TEXT", help: "Set your bio")

    /// While the favourites are browsed: the next one.
    static let next = KeyCommand.Declaration(
        "Next", keys: [KeyPress(.right), KeyPress(.down), KeyPress("l"), KeyPress("j")],
        help: "The next favourite")
    /// While the favourites are browsed: the previous one.
    static let previous = KeyCommand.Declaration(
        "Previous", keys: [KeyPress(.left), KeyPress(.up), KeyPress("h"), KeyPress("k")],
        help: "The previous favourite")
    /// While the favourites are browsed: back to the latest photo.
    static let endBrowsing = KeyCommand.Declaration(
        "Done", keys: [KeyPress(.escape)], help: "Back to the latest photo")

    /// Every command of the tab, in the order its help lists them; the browsing ones last.
    public static let all = [refresh, favorite, favorites, name, bio, next, previous, endBrowsing]
}
