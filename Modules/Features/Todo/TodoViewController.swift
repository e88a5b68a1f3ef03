import Domain
import Foundation
import HeadlessUI
import Layout
import RIBs
import RIBsHeadlessUI

/// What the list reports to the interactor.
@MainActor
protocol TodoPresentableListener: AnyObject {
    func didTapNew()
    func didToggle(_ id: UUID)
    func didRename(_ id: UUID, to title: String)
    func didDelete(_ id: UUID)
    func didClearCompleted()
    func didSelectFilter(_ filter: TodoFilter)
}

/// The todo list, written with HeadlessUI's UIKit-like views: a summary line, a table whose
/// rows are numbered as they appear on screen, and a status line.
///
/// Commands: `new`, `done N`, `edit N TITLE`, `delete N`, `clear`, `filter all|active|done`,
/// and `scroll up|down`. `N` is a row number as shown.
@MainActor
final class TodoViewController: ViewController, TodoPresentable, TodoViewControllable, TableViewDataSource,
    TableViewDelegate
{
    weak var listener: (any TodoPresentableListener)?

    let summaryLabel = Label()
    let tableView = TableView()
    let statusLabel = Label()
    private(set) var todos: [Todo] = []
    private var shownCount = 0

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Todo"
        navigationItem.rightBarButtonItem = BarButtonItem(title: "New") { [weak self] in
            self?.listener?.didTapNew()
        }
        summaryLabel.textStyle = TextStyle(isDim: true)
        statusLabel.textStyle = TextStyle(foreground: .yellow)
        tableView.dataSource = self
        tableView.delegate = self
        tableView.register(TableViewCell.self, forCellReuseIdentifier: "todo")
        for subview in [summaryLabel, tableView, statusLabel] { view.addSubview(subview) }
        makeLayout {
            _ = try summaryLabel.ndl.makeConstraints { make in
                make.top.equalToSuperview()
                make.leading.trailing.equalToSuperview().inset(1)
            }
            _ = try statusLabel.ndl.makeConstraints { make in
                make.bottom.equalToSuperview()
                make.leading.trailing.equalToSuperview().inset(1)
                make.height.equalTo(1)
            }
            _ = try tableView.ndl.makeConstraints { make in
                make.top.equalTo(summaryLabel.ndl.bottom)
                make.leading.trailing.equalToSuperview()
                make.bottom.equalTo(statusLabel.ndl.top)
            }
        }
    }

    // MARK: TodoPresentable

    func present(_ state: TodoReactor.State) {
        loadViewIfNeeded()
        let grew = state.list.todos.count > shownCount
        shownCount = state.list.todos.count
        todos = state.visible
        let total = state.list.todos.count
        let active = state.list.activeCount
        summaryLabel.text =
            "\(active) active, \(total - active) done · showing \(state.filter.rawValue) (\(todos.count))"
        statusLabel.text = state.status ?? (todos.isEmpty ? "Nothing here. Type `new` to add a todo." : "")
        navigationController?.tabBarItem.badgeValue = active > 0 ? "\(active)" : nil
        tableView.reloadData()
        // A new todo goes to the end of the list: bring it on screen.
        if grew, !todos.isEmpty, state.filter != .done { tableView.scrollToRow(at: todos.count - 1) }
    }

    // MARK: The table

    func numberOfRows(in tableView: TableView) -> Int { todos.count }

    func tableView(_ tableView: TableView, cellForRowAt row: Int) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "todo")
        let todo = todos[row]
        let number = row - tableView.contentOffset + 1
        cell.textLabel.text = "\(number). [\(todo.isDone ? "x" : " ")] \(todo.title)"
        cell.textLabel.textStyle = todo.isDone ? TextStyle(isDim: true) : .plain
        return cell
    }

    func tableView(_ tableView: TableView, didSelectRowAt row: Int) {
        guard todos.indices.contains(row) else { return }
        listener?.didToggle(todos[row].id)
    }

    /// The todo shown as row `number` (from 1) on screen.
    private func todo(onScreenRow argument: String?) -> Result<Todo, CommandFailure> {
        guard let argument, let number = Int(argument) else {
            return .failure(CommandFailure("Give a row number, as shown on screen."))
        }
        // Rows count as on screen once laid out, even before the first frame is drawn.
        tableView.layoutIfNeeded()
        let row = tableView.contentOffset + number - 1
        guard number >= 1, tableView.visibleRows.contains(row), todos.indices.contains(row) else {
            return .failure(CommandFailure("There is no row \(number) on screen."))
        }
        return .success(todos[row])
    }

    // MARK: Commands

    override func handle(_ command: TerminalCommand) -> CommandResult {
        switch command.name {
        case "new":
            listener?.didTapNew()
        case "done":
            return onRow(command) { listener?.didToggle($0.id) }
        case "edit":
            guard command.arguments.count >= 2 else { return .failed("Usage: edit N TITLE") }
            return onRow(command) { listener?.didRename($0.id, to: command.text(after: 1)) }
        case "delete":
            return onRow(command) { listener?.didDelete($0.id) }
        case "clear":
            listener?.didClearCompleted()
        case "filter":
            guard let filter = command.arguments.first.flatMap(TodoFilter.init(rawValue:)) else {
                return .failed("Usage: filter all|active|done")
            }
            listener?.didSelectFilter(filter)
        case "scroll":
            let page = max(1, tableView.rowsPerPage - 1)
            switch command.arguments.first {
            case "up": tableView.contentOffset -= page
            case "down": tableView.contentOffset += page
            default: return .failed("Usage: scroll up|down")
            }
        default:
            return .notHandled
        }
        return .handled
    }

    private func onRow(_ command: TerminalCommand, _ act: (Todo) -> Void) -> CommandResult {
        switch todo(onScreenRow: command.arguments.first) {
        case .success(let todo):
            act(todo)
            return .handled
        case .failure(let failure):
            return .failed(failure.reason)
        }
    }
}

/// Why a command could not pick a row.
struct CommandFailure: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
