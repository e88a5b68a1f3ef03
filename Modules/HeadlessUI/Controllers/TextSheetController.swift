import Layout
import TerminalCore

/// Multi-line text in a sheet over the screen, scrolled inside it, closed with Esc, `q` or
/// Enter: help, a tree dump, a long message. The text never scrolls the terminal.
///
/// ```swift
/// let sheet = TextSheetController(title: "Router tree", text: tree.description)
/// viewController.present(sheet)
/// ```
///
/// It presents itself as a ``ModalPresentationStyle/formSheet``: what is under it stays visible
/// around it. Its ``TextView`` takes the focus, so the arrows, Page Up/Down, Home/End and the
/// wheel scroll the text.
open class TextSheetController: ViewController {
    /// The view that shows and scrolls the text.
    public let textView: TextView

    /// A sheet showing `text` under `title`.
    public init(title: String? = nil, text: String) {
        textView = TextView(text: text, title: title)
        super.init()
        self.title = title
        modalPresentationStyle = .formSheet
    }

    /// The sheet is its text view alone: the box, title and scrolling are the view's.
    open override func loadView() {
        view = textView
    }

    /// The text view, so that the keys scroll it.
    open override var preferredFocusedView: View? { textView }

    /// Esc, `q` or Enter closes the sheet.
    open override var keyCommands: [KeyCommand] {
        [
            KeyCommand(
                "Close", keys: [KeyPress(.escape), KeyPress("q"), KeyPress(.enter)], help: "Close this sheet"
            ) {
                [weak self] _ in
                self?.dismiss()
                return .handled
            }
        ]
    }
}

extension Window {
    /// Presents a sheet with the help text of the key commands on screen
    /// (``KeyCommand/helpText(for:narrow:)``), over the topmost controller: in two columns, or,
    /// on a screen under 60 columns, each command's keys over what it does, since two columns
    /// there would leave the explanations a few letters a line.
    public func presentKeyCommandHelp(title: String = "Keys and commands") {
        guard let top = topmostController else { return }
        let text = KeyCommand.helpText(for: availableKeyCommands, narrow: size.width < 60)
        top.present(TextSheetController(title: title, text: text))
    }
}
