import Layout
import LayoutDSL
import TerminalCore

/// A small sheet that asks for one line of text: a field, ready to edit, in a box over the
/// screen. Enter hands the text to ``onSubmit`` and closes the sheet; Esc closes it and changes
/// nothing. For renaming an item or setting a value without leaving the screen.
///
/// ```swift
/// present(TextEntrySheet(title: "Rename", text: todo.title) { [weak self] title in
///     self?.rename(todo, to: title)
/// })
/// ```
open class TextEntrySheet: ViewController {
    /// The field being edited.
    public let field: TextField
    /// Runs with the text when Enter is pressed, after the sheet is closed.
    public var onSubmit: @MainActor (String) -> Void

    /// A sheet titled `title` whose field starts with `text`.
    public init(
        title: String, text: String = "", placeholder: String = "",
        onSubmit: @escaping @MainActor (String) -> Void
    ) {
        field = TextField(text: text, placeholder: placeholder)
        self.onSubmit = onSubmit
        super.init()
        self.title = title
        modalPresentationStyle = .formSheet
        // The border, the field, the hint and the border: no blank row inside the box.
        preferredContentSize = Size(width: 60, height: 4)
    }

    /// A box with the field and a line saying which keys apply.
    open override func loadView() {
        let box = OpaqueBoxView(title: title)
        let hint = Label("Enter saves · Esc cancels")
        hint.textStyle = TextStyle(isDim: true)
        box.addSubview(field)
        box.addSubview(hint)
        view = box
        field.onSubmit = { [weak self] text in
            guard let self else { return }
            dismiss()
            onSubmit(text)
        }
        makeLayout {
            _ = try field.ndl.makeConstraints { make in
                make.top.equalToSuperview().offset(1)
                make.left.right.equalToSuperview().inset(2)
            }
            _ = try hint.ndl.makeConstraints { make in
                make.top.equalTo(field.ndl.bottom)
                make.left.right.equalToSuperview().inset(2)
            }
        }
    }

    /// The field, so that what is typed goes into it from the start.
    open override var preferredFocusedView: View? { field }

    /// Esc cancels.
    open override var keyCommands: [KeyCommand] {
        [
            KeyCommand("Cancel", keys: [KeyPress(.escape)], help: "Close without saving") { [weak self] _ in
                self?.dismiss()
                return .handled
            }
        ]
    }
}

/// A box that blanks what is under it first: a sheet over a list must not show the list through.
final class OpaqueBoxView: BoxView {
    override func draw(in context: inout DrawingContext) {
        context.fill()
        super.draw(in: &context)
    }
}
