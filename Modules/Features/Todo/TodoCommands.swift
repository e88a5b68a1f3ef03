import HeadlessUI
import TerminalCore

/// The Todo list's commands, each declared once: the list makes its key commands from these,
/// and an app reads them to list every screen's commands in its help and to say where a
/// command typed on another screen belongs.
public enum TodoCommands {
    static let new = KeyCommand.Declaration(
        "New", keys: [KeyPress("n")], typed: "new", help: "Add a todo")
    static let done = KeyCommand.Declaration(
        "Done", keys: [KeyPress(" "), KeyPress("x")], typed: "done", usage: "done N",
        help: "Mark the selected todo (or row N) done, or not done")
    static let edit = KeyCommand.Declaration(
        "Edit", keys: [KeyPress("e")], typed: "edit", usage: "edit N TITLE",
        help: "Rename the selected todo (Enter), or rename row N to TITLE", showsInHelpBar: false)
    static let delete = KeyCommand.Declaration(
        "Delete", keys: [KeyPress("d"), KeyPress(.delete)], typed: "delete", usage: "delete N",
        help: "Delete the selected todo, or row N (u undoes)")
    static let undo = KeyCommand.Declaration(
        "Undo", keys: [KeyPress("u")], typed: "undo", help: "Put back what the last delete or clear removed")
    static let filter = KeyCommand.Declaration(
        "Filter", keys: [KeyPress("/")], typed: "filter", usage: "filter all|active|done",
        help: "Show all, active or done todos (/ goes to the next)")
    static let clear = KeyCommand.Declaration(
        "Clear", typed: "clear", help: "Delete every done todo (u undoes)")
    static let down = KeyCommand.Declaration(
        "Down", keys: [KeyPress("j")], help: "Select the next todo (Down)", showsInHelpBar: false)
    static let up = KeyCommand.Declaration(
        "Up", keys: [KeyPress("k")], help: "Select the previous todo (Up)", showsInHelpBar: false)
    static let scroll = KeyCommand.Declaration(
        "Scroll", typed: "scroll", usage: "scroll up|down", help: "Scroll the list by a page",
        showsInHelpBar: false)

    /// Every command of the list, in the order its help lists them.
    public static let all = [new, done, edit, delete, undo, filter, clear, down, up, scroll]
}
