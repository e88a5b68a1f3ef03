import HeadlessUI

/// The New todo form's commands, each declared once (see `TodoCommands`): Enter and Esc work in
/// its title field, these are for the `:` prompt and scripts.
public enum AddTodoCommands {
    static let save = KeyCommand.Declaration(
        "Save", typed: "save", usage: "save TITLE", help: "Add the todo titled TITLE", showsInHelpBar: false)
    static let cancel = KeyCommand.Declaration(
        "Cancel", typed: "cancel", help: "Leave the form without adding", showsInHelpBar: false)

    /// Every command of the form, in the order its help lists them.
    public static let all = [save, cancel]
}
