import HeadlessUI
import HeadlessUITesting
import Layout
import LayoutDSL
import TerminalCore
import Testing

/// A typical screen: a navigation bar, a list, a status line and a tab bar.
@MainActor
final class TodoListScreen: ViewController, TableViewDataSource {
    let table = TableView()
    let status = Label()
    var todos: [(title: String, done: Bool)]

    init(todos: [(String, Bool)]) {
        self.todos = todos.map { (title: $0.0, done: $0.1) }
        super.init()
        title = "할 일 Todos"
        navigationItem.rightBarButtonItem = BarButtonItem(title: "+ New")
    }

    override func viewDidLoad() {
        view.addSubview(table)
        view.addSubview(status)
        table.dataSource = self
        status.textStyle = TextStyle(isDim: true)
        status.text = "\(todos.filter { !$0.done }.count) left"
        // As the app's screens do: a constraint that cannot be made is reported, not a crash.
        makeLayout {
            _ = try table.ndl.makeConstraints { make in
                make.top.leading.trailing.equalToSuperview()
                make.bottom.equalTo(status.ndl.top)
            }
            _ = try status.ndl.makeConstraints { make in
                make.leading.trailing.equalToSuperview().inset(1)
                make.bottom.equalToSuperview()
            }
        }
    }

    func numberOfRows(in tableView: TableView) -> Int { todos.count }

    func tableView(_ tableView: TableView, cellForRowAt row: Int) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "todo")
        cell.textLabel.text = "\(row + 1). " + todos[row].title
        cell.accessoryType = todos[row].done ? .checkmark : .none
        return cell
    }
}

@MainActor
@Suite("Golden snapshots of rendered screens (Snapshots/; re-record with RIBCAGE_RECORD_SNAPSHOTS=1)")
struct ScreenSnapshotTests {
    private func todoApp(size: Size, count: Int = 4) -> (Window, NavigationController) {
        let titles = ["Buy milk", "우유 사기", "Write the HeadlessUI tests", "Walk the dog 🐶", "Call mum"]
        let todos = (0..<count).map { (titles[$0 % titles.count], $0 % 3 == 1) }
        let navigation = NavigationController(rootViewController: TodoListScreen(todos: todos))
        let profile = ViewController()
        profile.title = "Profile"
        let tabs = TabBarController()
        tabs.viewControllers = [navigation, profile]
        let window = Window(size: size)
        window.rootViewController = tabs
        window.makeKeyAndVisible()
        return (window, navigation)
    }

    @Test func todoList() {
        let (window, _) = todoApp(size: Size(width: 40, height: 12))
        assertSnapshot(window.render(), named: "todo-list-40x12")
    }

    @Test func aLongListScrolledToItsEndShowsTheScrollIndicator() throws {
        let (window, navigation) = todoApp(size: Size(width: 40, height: 12), count: 10_000)
        let list = try #require(navigation.topViewController as? TodoListScreen)
        list.table.scrollToRow(at: 9_999)
        assertSnapshot(window.render(), named: "todo-list-scrolled-40x12")
        #expect(list.table.subviews.count == list.table.rowsPerPage)
    }

    @Test func resizingTheWindowReLaysTheSameScreenOut() {
        let (window, _) = todoApp(size: Size(width: 40, height: 12))
        _ = window.render()
        window.resize(to: Size(width: 60, height: 8))
        assertSnapshot(window.render(), named: "todo-list-60x8")
        window.resize(to: Size(width: 40, height: 12))
        assertSnapshot(window.render(), named: "todo-list-40x12")
        #expect(window.layoutReport.errors.isEmpty)
    }

    @Test func aPushedDetailWithAWrappedKoreanNoteAndAPicture() throws {
        let (window, navigation) = todoApp(size: Size(width: 40, height: 16))
        let detail = ViewController()
        detail.title = "우유 사기"
        let note = Label("동네 가게에서 저지방 우유 두 팩을 사고, 가는 길에 빵도 하나 사기.")
        note.numberOfLines = 0
        let picture = ImageView(
            image: Image(
                url: "https://images.dog.ceo/breeds/akita/Akita_Inu_dog.jpg",
                pixelSize: Size(width: 500, height: 375)),
            caption: "Akita")
        let stack = StackView(arrangedSubviews: [note, Separator(), picture])
        stack.spacing = 1
        stack.alignment = .fill
        detail.view.addSubview(stack)
        try stack.ndl.makeConstraints { make in make.top.leading.trailing.equalToSuperview().inset(1) }
        navigation.pushViewController(detail)
        assertSnapshot(window.render(), named: "todo-detail-40x16")
    }

    @Test func aPresentedFormCoversTheTabs() throws {
        let (window, navigation) = todoApp(size: Size(width: 40, height: 8))
        let form = ViewController()
        let box = BoxView(title: "New todo", border: .rounded)
        let field = TextField(placeholder: "What needs doing?")
        let buttons = StackView(arrangedSubviews: [Button(title: "Cancel"), Button(title: "Save")])
        buttons.axis = .horizontal
        buttons.spacing = 2
        let column = StackView(arrangedSubviews: [field, buttons])
        column.spacing = 1
        column.alignment = .leading
        box.contentView.addSubview(column)
        form.view.addSubview(box)
        try column.ndl.makeConstraints { make in
            make.edges.equalToSuperview().inset(EdgeInsets(top: 0, left: 1, bottom: 0, right: 1))
        }
        try box.ndl.makeConstraints { make in make.top.leading.trailing.equalToSuperview().inset(1) }
        navigation.present(form)
        assertSnapshot(window.render(), named: "new-todo-form-40x8")
    }
}
