import HeadlessUI
import Layout
import LayoutDSL
import RIBs
import RIBsHeadlessUI
import TerminalCore

/// What the screen reports to the interactor.
@MainActor
protocol AddTodoPresentableListener: AnyObject {
    func didTapSave(title: String)
    func didTapCancel()
}

/// A title field with Save and Cancel, written with HeadlessUI's UIKit-like views. The field
/// has the focus: what is typed goes into it, Enter saves, Esc goes back.
/// Commands: `save <title>` and `cancel`; `back` is the navigation bar's.
@MainActor
final class AddTodoViewController: ViewController, AddTodoPresentable, AddTodoViewControllable {
    weak var listener: (any AddTodoPresentableListener)?

    let titleField = TextField(placeholder: "What needs doing? Enter saves, Esc goes back")
    let problemLabel = Label()
    private lazy var saveButton = Button(title: "Save") { [weak self] in
        guard let self else { return }
        listener?.didTapSave(title: titleField.text)
    }
    private lazy var cancelButton = Button(title: "Cancel") { [weak self] in self?.listener?.didTapCancel() }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "New todo"
        problemLabel.textStyle = TextStyle(foreground: .red)
        titleField.onSubmit = { [weak self] line in
            // The field empties itself on Enter; the title stays in it until it is accepted.
            self?.titleField.text = line
            self?.listener?.didTapSave(title: line)
        }
        let buttons = StackView(arrangedSubviews: [saveButton, cancelButton])
        buttons.axis = .horizontal
        buttons.spacing = 2
        let form = StackView(arrangedSubviews: [Label("Title"), titleField, buttons, problemLabel])
        form.spacing = 1
        form.alignment = .leading
        view.addSubview(form)
        makeLayout {
            _ = try form.ndl.makeConstraints { make in
                make.top.leading.equalToSuperview().offset(1)
                make.trailing.equalToSuperview().offset(-1)
            }
            _ = try titleField.ndl.makeConstraints { make in make.width.equalTo(form) }
        }
    }

    override var preferredFocusedView: View? { titleField }

    func showProblem(_ problem: String?) {
        problemLabel.text = problem ?? ""
    }

    override var keyCommands: [KeyCommand] {
        [
            KeyCommand(AddTodoCommands.save) { [weak self] invocation in
                // Typed, the title is the command's text; the field is for what is typed in it.
                self?.listener?.didTapSave(title: invocation.typedCommand?.text() ?? "")
                return .handled
            },
            KeyCommand(AddTodoCommands.cancel) { [weak self] _ in
                self?.listener?.didTapCancel()
                return .handled
            },
        ]
    }
}
