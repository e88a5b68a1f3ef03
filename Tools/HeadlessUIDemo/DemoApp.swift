import Foundation
import HeadlessUI
import Layout
import LayoutDSL
import TerminalCore

/// The demo's screens: a list of groceries with its commands, a form that adds to it, and a
/// help bar; built with HeadlessUI's UIKit-like controllers.
@MainActor
enum DemoApp {
    /// The window with the list and the form in tabs, and a picture tab when `imagePath` is
    /// given.
    static func makeWindow(size: Size, imagePath: String? = nil) -> Window {
        let list = GroceryListViewController()
        let form = NewGroceryViewController()
        form.onSave = { [weak list] name in list?.add(name) }
        let tabs = TabBarController()
        var controllers: [ViewController] = [NavigationController(rootViewController: list), form]
        if let imagePath { controllers.append(PictureViewController(path: imagePath)) }
        tabs.viewControllers = controllers
        tabs.tabBar.trailingText = "HeadlessUI demo"
        let window = Window(size: size)
        window.rootViewController = tabs
        window.makeKeyAndVisible()
        return window
    }
}

/// The list: arrows select, Enter opens, `d` deletes, `?` shows the keys.
@MainActor
final class GroceryListViewController: ViewController, TableViewDataSource, TableViewDelegate {
    private var items = ["Oat milk", "Eggs", "Rye bread", "Apples", "Coffee beans", "Rice", "Tofu", "Lemons"]
    private let table = TableView()
    private let status = Label("Up/Down select · Enter opens · ? help")
    private let helpBar = HelpBar()

    override init() {
        super.init()
        title = "Groceries"
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        status.textStyle = TextStyle(foreground: .yellow)
        helpBar.trailingItems = [(KeyPress("c", modifiers: .control), "Quit")]
        table.dataSource = self
        table.delegate = self
        for subview in [table, status, helpBar] { view.addSubview(subview) }
        makeLayout {
            _ = try table.ndl.makeConstraints { make in
                make.top.left.right.equalToSuperview()
                make.bottom.equalTo(status.ndl.top)
            }
            _ = try status.ndl.makeConstraints { make in
                make.left.right.equalToSuperview().inset(1)
                make.bottom.equalTo(helpBar.ndl.top)
            }
            _ = try helpBar.ndl.makeConstraints { make in make.left.right.bottom.equalToSuperview() }
        }
    }

    override var preferredFocusedView: View? { table }

    override var keyCommands: [KeyCommand] {
        [
            KeyCommand(
                "Delete", keys: [KeyPress("d"), KeyPress(.delete)], typed: "delete", usage: "delete N",
                help: "Delete the selected item, or item N"
            ) { [weak self] invocation in
                self?.delete(invocation) ?? .handled
            },
            KeyCommand("Help", keys: [KeyPress("?"), KeyPress(.function(1))], help: "Show every key") {
                [weak self] _ in
                self?.window?.presentKeyCommandHelp()
                return .handled
            },
        ]
    }

    func add(_ name: String) {
        items.append(name)
        table.reloadData()
        table.selectRow(at: items.count - 1)
        status.text = "Added \(name)"
    }

    private func delete(_ invocation: KeyCommand.Invocation) -> CommandResult {
        let row = invocation.arguments.first.flatMap { Int($0) }.map { $0 - 1 } ?? table.selectedRow
        guard let row, items.indices.contains(row) else { return .failed("Select an item first.") }
        status.text = "Deleted \(items.remove(at: row))"
        table.reloadData()
        return .handled
    }

    func numberOfRows(in tableView: TableView) -> Int { items.count }

    func tableView(_ tableView: TableView, cellForRowAt row: Int) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "grocery")
        cell.textLabel.text = "\(row + 1). \(items[row])"
        cell.accessoryType = .disclosureIndicator
        return cell
    }

    func tableView(_ tableView: TableView, didSelectRowAt row: Int) {
        let detail = ViewController()
        detail.title = items[row]
        let label = Label("\(items[row]) is item \(row + 1) of \(items.count). Esc goes back.")
        label.numberOfLines = 0
        detail.view.addSubview(label)
        detail.makeLayout {
            _ = try label.ndl.makeConstraints { make in make.top.left.right.equalToSuperview().inset(1) }
        }
        navigationController?.pushViewController(detail)
    }
}

/// The form: a text field and a button; Enter in the field saves too.
@MainActor
final class NewGroceryViewController: ViewController {
    var onSave: ((String) -> Void)?
    private let field = TextField(placeholder: "What to buy")
    private let save = HeadlessUI.Button(title: "Add")
    private let hint = Label("Tab completes the name; Shift-Tab moves to the button.")

    override init() {
        super.init()
        title = "Add"
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        hint.textStyle = TextStyle(isDim: true)
        field.onSubmit = { [weak self] name in self?.submit(name) }
        field.completion = { text in
            let word = text.split(separator: " ").last.map(String.init) ?? ""
            return ["Apples", "Avocados", "Bananas", "Basil"].filter {
                $0.lowercased().hasPrefix(word.lowercased())
            }
        }
        save.primaryAction = { [weak self] in
            guard let self else { return }
            submit(field.text)
            field.text = ""
        }
        for subview in [field, save, hint] { view.addSubview(subview) }
        makeLayout {
            _ = try field.ndl.makeConstraints { make in
                make.top.equalToSuperview().offset(1)
                make.left.right.equalToSuperview().inset(1)
            }
            _ = try save.ndl.makeConstraints { make in
                make.top.equalTo(field.ndl.bottom).offset(1)
                make.left.equalToSuperview().offset(1)
            }
            _ = try hint.ndl.makeConstraints { make in
                make.top.equalTo(save.ndl.bottom).offset(1)
                make.left.right.equalToSuperview().inset(1)
            }
        }
    }

    override var preferredFocusedView: View? { field }

    private func submit(_ name: String) {
        let trimmed = name.split(separator: " ").joined(separator: " ")
        guard !trimmed.isEmpty else { return }
        onSave?(trimmed)
        hint.text = "Added \(trimmed). Alt-1 shows the list."
    }
}

/// A picture from a file, drawn with half blocks, or the reason it cannot be shown.
@MainActor
final class PictureViewController: ViewController {
    private let path: String
    private let imageView = ImageView()

    init(path: String) {
        self.path = path
        super.init()
        title = "Picture"
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        imageView.caption = URL(fileURLWithPath: path).lastPathComponent
        do {
            try imageView.setImageData(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            // The view shows why in place of the picture; an unreadable file is said the same way.
            if imageView.failure == nil {
                imageView.failure = .unreadable(path: path, reason: error.localizedDescription)
            }
        }
        view.addSubview(imageView)
        makeLayout {
            _ = try imageView.ndl.makeConstraints { make in make.edges.equalToSuperview() }
        }
    }
}
