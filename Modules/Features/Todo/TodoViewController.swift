import Domain
import Foundation
import HeadlessUI
import Layout
import LayoutDSL
import RIBs
import RIBsHeadlessUI
import TerminalCore

/// What the list reports to the interactor.
@MainActor
protocol TodoPresentableListener: AnyObject {
    func didTapNew()
    func didToggle(_ id: UUID)
    func didRename(_ id: UUID, to title: String)
    func didDelete(_ id: UUID)
    func didClearCompleted()
    func didUndo()
    func didSelectFilter(_ filter: TodoFilter)
}

/// The todo list, written with HeadlessUI's UIKit-like views: a summary line and a table with a
/// selection. Keys first: Up/Down or j/k select, Space or x toggles, Enter renames, n adds,
/// d deletes, u undoes, / changes the filter. Every key has a typed form for `--script` and the
/// `:` prompt, where `N` is a row's number as the list shows it.
@MainActor
final class TodoViewController: ViewController, TodoPresentable, TodoViewControllable, TableViewDataSource,
    TableViewDelegate
{
    weak var listener: (any TodoPresentableListener)?

    let summaryLabel = Label()
    let tableView = TableView()
    static let emptyText = "Nothing here. Press n, or type `new`, to add a todo."
    let emptyLabel = Label(emptyText)
    private(set) var todos: [Todo] = []
    private(set) var filter = TodoFilter.all
    private var hasPresented = false

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Todo"
        navigationItem.rightBarButtonItem = BarButtonItem(title: "New") { [weak self] in
            self?.listener?.didTapNew()
        }
        summaryLabel.textStyle = TextStyle(isDim: true)
        emptyLabel.textStyle = TextStyle(isDim: true)
        emptyLabel.numberOfLines = 0
        tableView.dataSource = self
        tableView.delegate = self
        tableView.register(TodoCell.self, forCellReuseIdentifier: "todo")
        for subview in [summaryLabel, tableView, emptyLabel] { view.addSubview(subview) }
        makeLayout {
            _ = try summaryLabel.ndl.makeConstraints { make in
                make.top.equalToSuperview()
                make.leading.trailing.equalToSuperview().inset(1)
            }
            _ = try tableView.ndl.makeConstraints { make in
                make.top.equalTo(summaryLabel.ndl.bottom)
                make.leading.trailing.bottom.equalToSuperview()
            }
            _ = try emptyLabel.ndl.makeConstraints { make in
                make.top.equalTo(summaryLabel.ndl.bottom).offset(1)
                make.leading.trailing.equalToSuperview().inset(1)
            }
        }
    }

    override var preferredFocusedView: View? { tableView }

    // MARK: TodoPresentable

    func present(_ state: TodoReactor.State) {
        loadViewIfNeeded()
        let selectedID = tableView.selectedRow.flatMap { todos.indices.contains($0) ? todos[$0].id : nil }
        let previousRow = tableView.selectedRow
        todos = state.visible
        filter = state.filter
        let total = state.list.todos.count
        let active = state.list.activeCount
        summaryLabel.text =
            "\(active) active, \(total - active) done · showing \(state.filter.rawValue) (\(todos.count))"
        // The counts are of this launch's todos only: the stored ones were never read.
        if state.notRead != nil { summaryLabel.text += " · stored todos not read" }
        emptyLabel.text = state.isLoaded ? state.notRead ?? Self.emptyText : "Reading the todos…"
        emptyLabel.isHidden = !todos.isEmpty
        navigationController?.tabBarItem.badgeValue = active > 0 ? "\(active)" : nil
        tableView.reloadData()
        tableView.layoutIfNeeded()
        if let added = Self.lastAdded(by: state.lastChanges, in: todos) {
            // A new todo goes to the end of the list: select it and bring it on screen.
            tableView.selectRow(at: added)
        } else if let selectedID, let row = todos.firstIndex(where: { $0.id == selectedID }) {
            tableView.selectRow(at: row)
        } else if !todos.isEmpty {
            // First show, or the selected todo went: the top, or the row where it was.
            tableView.selectRow(
                at: min(previousRow ?? 0, todos.count - 1), scrollPosition: hasPresented ? .none : .top)
        }
        hasPresented = hasPresented || state.isLoaded
        view.setNeedsDisplay()
    }

    func post(_ notice: Notice?) {
        // Notice.Kind and StatusMessage.Kind share their names (TodoTests checks every one).
        post(
            notice.map {
                StatusMessage($0.text, kind: StatusMessage.Kind(rawValue: $0.kind.rawValue) ?? .info)
            })
    }

    /// The row of the last todo `changes` added (one, or those an undo put back), when it is
    /// among `todos`, the rows shown.
    private static func lastAdded(by changes: [TodoChange], in todos: [Todo]) -> Int? {
        for case .added(let todo) in changes.reversed() {
            return todos.lastIndex { $0.id == todo.id }
        }
        return nil
    }

    // MARK: The table

    func numberOfRows(in tableView: TableView) -> Int { todos.count }

    func tableView(_ tableView: TableView, cellForRowAt row: Int) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "todo")
        let todo = todos[row]
        cell.textLabel.text = TodoCell.text(for: todo, number: row + 1, digits: String(todos.count).count)
        cell.textLabel.textStyle = todo.isDone ? TextStyle(isDim: true) : .plain
        return cell
    }

    /// Enter or a click on a row renames it.
    func tableView(_ tableView: TableView, didSelectRowAt row: Int) {
        guard todos.indices.contains(row) else { return }
        beginRenaming(todos[row])
    }

    private func beginRenaming(_ todo: Todo) {
        let sheet = TextEntrySheet(title: "Rename", text: todo.title, placeholder: "A title") {
            [weak self] title in
            self?.listener?.didRename(todo.id, to: title)
        }
        // Over everything, as a sheet from the window's top controller, so that it has the focus.
        (view.window?.topmostController ?? self).present(sheet)
    }

    // MARK: Commands

    override var keyCommands: [KeyCommand] {
        [
            KeyCommand(TodoCommands.new) { [weak self] _ in
                self?.listener?.didTapNew()
                return .handled
            },
            KeyCommand(TodoCommands.done) { [weak self] invocation in
                self?.onRow(invocation) { self?.listener?.didToggle($0.id) } ?? .handled
            },
            KeyCommand(TodoCommands.edit) { [weak self] invocation in
                self?.edit(invocation) ?? .handled
            },
            KeyCommand(TodoCommands.delete) { [weak self] invocation in
                self?.onRow(invocation) { self?.listener?.didDelete($0.id) } ?? .handled
            },
            KeyCommand(TodoCommands.undo) { [weak self] _ in
                self?.listener?.didUndo()
                return .handled
            },
            KeyCommand(TodoCommands.filter) { [weak self] invocation in
                self?.changeFilter(invocation) ?? .handled
            },
            KeyCommand(TodoCommands.clear) { [weak self] _ in
                self?.listener?.didClearCompleted()
                return .handled
            },
            KeyCommand(TodoCommands.down) { [weak self] _ in
                _ = self?.tableView.handleKey(KeyPress(.down))
                return .handled
            },
            KeyCommand(TodoCommands.up) { [weak self] _ in
                _ = self?.tableView.handleKey(KeyPress(.up))
                return .handled
            },
            KeyCommand(TodoCommands.scroll) { [weak self] invocation in
                self?.scroll(invocation) ?? .handled
            },
        ]
    }

    /// The todo numbered `argument` in the list, or the selected one when there is no argument.
    private func todo(for invocation: KeyCommand.Invocation) -> Result<Todo, CommandFailure> {
        guard let argument = invocation.arguments.first else {
            guard let row = tableView.selectedRow, todos.indices.contains(row) else {
                return .failure(
                    CommandFailure(todos.isEmpty ? "There are no todos here." : "Select a todo first."))
            }
            return .success(todos[row])
        }
        guard let number = Int(argument) else {
            return .failure(CommandFailure("Give a row number, as the list shows it, not \"\(argument)\"."))
        }
        guard todos.indices.contains(number - 1) else {
            return .failure(
                CommandFailure(
                    todos.isEmpty
                        ? "There are no todos here."
                        : "There is no row \(number); rows go 1 to \(todos.count)."))
        }
        tableView.selectRow(at: number - 1)
        return .success(todos[number - 1])
    }

    private func onRow(_ invocation: KeyCommand.Invocation, _ act: (Todo) -> Void) -> CommandResult {
        switch todo(for: invocation) {
        case .success(let todo):
            act(todo)
            return .handled
        case .failure(let failure):
            return .failed(failure.reason)
        }
    }

    private func edit(_ invocation: KeyCommand.Invocation) -> CommandResult {
        if case .typed(let command) = invocation, command.arguments.count < 2 {
            return .failed("Usage: edit N TITLE (or select a todo and press Enter)")
        }
        return onRow(invocation) { todo in
            if let command = invocation.typedCommand {
                listener?.didRename(todo.id, to: command.text(after: 1))
            } else {
                beginRenaming(todo)
            }
        }
    }

    private func changeFilter(_ invocation: KeyCommand.Invocation) -> CommandResult {
        guard let command = invocation.typedCommand else {
            let all = TodoFilter.allCases
            let next = all[((all.firstIndex(of: filter) ?? 0) + 1) % all.count]
            listener?.didSelectFilter(next)
            return .handled
        }
        guard let filter = command.arguments.first.flatMap(TodoFilter.init(rawValue:)) else {
            return .failed("Usage: filter all|active|done")
        }
        listener?.didSelectFilter(filter)
        return .handled
    }

    private func scroll(_ invocation: KeyCommand.Invocation) -> CommandResult {
        let page = max(1, tableView.rowsPerPage - 1)
        switch invocation.arguments.first {
        case "up": tableView.contentOffset -= page
        case "down": tableView.contentOffset += page
        default: return .failed("Usage: scroll up|down")
        }
        return .handled
    }
}

/// Why a command could not pick a row.
struct CommandFailure: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
