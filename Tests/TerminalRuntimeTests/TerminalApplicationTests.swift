import HeadlessUI
import HeadlessUITesting
import Layout
import LayoutDSL
import TerminalCore
import TerminalRuntime
import Testing

/// A small app for the runtime's tests: a list tab (a table and a status line, with declared
/// commands) and a form tab (a text field and a button), with a help bar under both.
@MainActor
final class ShoppingList: ViewController, TableViewDataSource, TableViewDelegate {
    var items = (1...30).map { "Item \($0)" }
    let table = TableView()
    let status = Label("ready")
    let helpBar = HelpBar()

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "List"
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
            ) {
                [weak self] invocation in
                self?.delete(invocation) ?? .handled
            },
            KeyCommand("Help", keys: [KeyPress("?")], help: "Show the keys") { [weak self] _ in
                self?.window?.presentKeyCommandHelp()
                return .handled
            },
        ]
    }

    private func delete(_ invocation: KeyCommand.Invocation) -> CommandResult {
        let row: Int?
        if let argument = invocation.arguments.first {
            row = Int(argument).map { $0 - 1 }
        } else {
            row = table.selectedRow
        }
        guard let row, items.indices.contains(row) else { return .failed("Select an item to delete.") }
        status.text = "deleted \(items.remove(at: row))"
        table.reloadData()
        return .handled
    }

    func numberOfRows(in tableView: TableView) -> Int { items.count }

    func tableView(_ tableView: TableView, cellForRowAt row: Int) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "item")
        cell.textLabel.text = items[row]
        return cell
    }

    func tableView(_ tableView: TableView, didSelectRowAt row: Int) {
        status.text = "opened \(items[row])"
    }
}

@MainActor
final class ItemForm: ViewController {
    let field = TextField(placeholder: "New item")
    let save = HeadlessUI.Button(title: "Save")
    var saved: [String] = []
    /// Whether the field is the view to focus when nothing has the focus.
    var prefersField = false

    override init() {
        super.init()
        title = "Form"
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        save.primaryAction = { [weak self] in
            guard let self else { return }
            saved.append(field.text)
            field.text = ""
        }
        view.addSubview(field)
        view.addSubview(save)
        makeLayout {
            _ = try field.ndl.makeConstraints { make in
                make.top.left.equalToSuperview().offset(1)
                make.right.equalToSuperview().offset(-1)
            }
            _ = try save.ndl.makeConstraints { make in
                make.top.equalTo(field.ndl.bottom).offset(1)
                make.left.equalToSuperview().offset(1)
            }
        }
    }

    override var preferredFocusedView: View? { prefersField ? field : nil }
}

@MainActor
func makeShoppingApp() -> (window: Window, list: ShoppingList, form: ItemForm, tabs: TabBarController) {
    let list = ShoppingList()
    let form = ItemForm()
    let tabs = TabBarController()
    tabs.viewControllers = [NavigationController(rootViewController: list), form]
    let window = Window(size: Size(width: 40, height: 12))
    window.rootViewController = tabs
    return (window, list, form, tabs)
}

@MainActor
@Suite("TerminalApplication through the pilot: keys, focus, mouse, commands, resize and frames")
struct TerminalApplicationTests {
    @Test func arrowsMoveTheTableSelectionAndEnterOpensTheRow() {
        let app = makeShoppingApp()
        let pilot = TerminalPilot(window: app.window, size: Size(width: 40, height: 12))
        pilot.press(.down, .down, .down)
        #expect(app.list.table.selectedRow == 2)
        pilot.press(.enter)
        #expect(app.list.status.text == "opened Item 3")
        pilot.press(.pageDown, .end)
        #expect(app.list.table.selectedRow == 29)
        #expect(app.list.table.visibleRows.contains(29))
        assertSnapshot(pilot.transcript, named: "pilot-table-keys-40x12")
    }

    @Test func declaredCommandsRunByKeyAndByNameAndFillTheHelpBar() {
        let app = makeShoppingApp()
        let pilot = TerminalPilot(window: app.window, size: Size(width: 40, height: 12))
        #expect(pilot.screen.contains("d Delete  ? Help"))
        pilot.press(.down, .down)
        pilot.press(KeyPress("d"))
        #expect(app.list.status.text == "deleted Item 2")
        let typed = app.window.perform(TerminalCommand("delete 1")!)
        #expect(typed == .handled)
        #expect(app.list.items.prefix(2) == ["Item 3", "Item 4"])
        var failures: [String] = []
        pilot.application.onCommandFailure = { failures.append($0) }
        app.list.table.selectRow(at: nil)
        pilot.press(KeyPress(.delete))
        #expect(failures == ["Select an item to delete."])
        let help = KeyCommand.helpText(for: app.window.availableKeyCommands)
        #expect(help.contains("d/Del, delete N        Delete the selected item, or item N"))
        #expect(help.contains("tab NAME"))
    }

    @Test func helpOpensAsASheetOverTheScreenThatScrollsAndClosesWithEsc() {
        let app = makeShoppingApp()
        let pilot = TerminalPilot(window: app.window, size: Size(width: 40, height: 12))
        pilot.press(KeyPress("?"))
        #expect(app.window.topmostController is TextSheetController)
        #expect(pilot.screen.contains("Keys and commands"))
        #expect(pilot.screen.contains("List"))  // the screen under the sheet stays visible
        pilot.press(.down)
        pilot.press(.escape)
        #expect(app.window.topmostController === app.tabs)
        assertSnapshot(pilot.transcript, named: "pilot-help-sheet-40x12")
    }

    @Test func tabMovesFocusTypingEditsTheFieldAndEnterOnTheButtonSaves() {
        let app = makeShoppingApp()
        app.tabs.selectedIndex = 1
        let pilot = TerminalPilot(window: app.window, size: Size(width: 40, height: 12))
        pilot.press(.tab)
        #expect(app.window.focusedView === app.form.field)
        pilot.type("milk")
        pilot.press(KeyPress("a", modifiers: .control))
        pilot.type("oat ")
        #expect(app.form.field.text == "oat milk")
        pilot.press(.tab)
        #expect(app.window.focusedView === app.form.save)
        pilot.press(.enter)
        #expect(app.form.saved == ["oat milk"])
        pilot.press(KeyPress(.tab, modifiers: .shift))
        #expect(app.window.focusedView === app.form.field)
        assertSnapshot(pilot.transcript, named: "pilot-form-focus-40x12")
    }

    @Test func typedEscapeSequencesAndPastedControlsNeverReachTheScreen() {
        let app = makeShoppingApp()
        app.tabs.selectedIndex = 1
        let pilot = TerminalPilot(window: app.window, size: Size(width: 40, height: 12))
        app.form.field.becomeFocused()
        pilot.send(bytes: Array("foo\u{1B}[31mbar".utf8), label: "type foo ESC[31m bar")
        #expect(app.form.field.text == "foobar")
        pilot.send(
            bytes: Array("\u{1B}[200~ x\u{1B}[2J\u{07}y\u{1B}[201~".utf8), label: "paste with controls")
        #expect(app.form.field.text == "foobar xy")
        let bytes = pilot.application.lastFrameBytes
        #expect(!String(decoding: bytes, as: UTF8.self).contains("[31m"))
        #expect(!String(decoding: bytes, as: UTF8.self).contains("[2J"))
    }

    @Test func whatIsTypedSurvivesABackgroundRedraw() {
        let app = makeShoppingApp()
        app.tabs.selectedIndex = 1
        let pilot = TerminalPilot(window: app.window, size: Size(width: 40, height: 12))
        app.form.field.becomeFocused()
        pilot.type("half-typ")
        app.form.title = "Form (synced)"
        app.tabs.tabBar.trailingText = "synced"
        pilot.redraw(label: "background work finished")
        #expect(pilot.screen.contains("[half-typ"))
        #expect(pilot.screen.contains("synced"))
        pilot.type("ed")
        #expect(app.form.field.text == "half-typed")
    }

    @Test func mouseClicksRowsTabsAndButtonsAndTheWheelScrolls() {
        let app = makeShoppingApp()
        let pilot = TerminalPilot(window: app.window, size: Size(width: 40, height: 12))
        pilot.click(x: 5, y: 4)  // row 3: the bar takes rows 0 and 1
        #expect(app.list.status.text == "opened Item 3")
        pilot.scroll(2, x: 5, y: 4)
        #expect(app.list.table.contentOffset == 6)
        pilot.click(x: 5, y: 4)
        #expect(app.list.status.text == "opened Item 9")
        let formTab = pilot.screen.split(separator: "\n").last.flatMap { $0.range(of: "2 Form") }
        let column = try? #require(formTab).lowerBound.utf16Offset(
            in: pilot.screen.split(separator: "\n").last ?? "")
        pilot.click(x: column ?? 0, y: 11)
        #expect(app.tabs.selectedIndex == 1)
        pilot.click(x: 2, y: 3)  // the button
        #expect(app.form.saved == [""])
        pilot.click(x: 3, y: 1)  // the field takes focus
        #expect(app.window.focusedView === app.form.field)
    }

    @Test func aResizeRedrawsInFullAtTheNewSizeAndDownTo40x12NothingWraps() {
        let app = makeShoppingApp()
        let pilot = TerminalPilot(window: app.window, size: Size(width: 100, height: 28))
        let fullFrames = pilot.application.fullFrameCount
        pilot.resize(to: Size(width: 40, height: 12))
        #expect(pilot.application.fullFrameCount == fullFrames + 1)
        let rows = pilot.screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count == 12)
        #expect(rows.allSatisfy { $0.terminalWidth <= 40 })
        #expect(rows[1] == String(repeating: "─", count: 40))
        pilot.resize(to: Size(width: 200, height: 60))
        #expect(pilot.screen.split(separator: "\n", omittingEmptySubsequences: false).count == 60)
        #expect(pilot.screen.split(separator: "\n")[1].terminalWidth == 200)
    }

    @Test func ctrlLRedrawsEverythingAndCtrlCQuits() {
        let app = makeShoppingApp()
        let pilot = TerminalPilot(window: app.window, size: Size(width: 40, height: 12))
        let fullFrames = pilot.application.fullFrameCount
        pilot.press(KeyPress("l", modifiers: .control))
        #expect(pilot.application.fullFrameCount == fullFrames + 1)
        #expect(pilot.application.exitReason == nil)
        pilot.press(KeyPress("c", modifiers: .control))
        #expect(pilot.application.exitReason == .quit)
        #expect(TerminalApplication.ExitReason.signal(15).exitStatus == 143)
    }

    @Test func aOneCellChangeWritesFewBytes() {
        let app = makeShoppingApp()
        let pilot = TerminalPilot(window: app.window, size: Size(width: 80, height: 24))
        app.list.status.text = "readz"
        pilot.redraw()
        #expect(pilot.steps.last?.bytesWritten ?? 999 < 64)
        #expect(pilot.steps.first?.bytesWritten ?? 0 > 500)
    }
}

@MainActor
@Suite("Window key commands: the app's own commands after the controllers'")
struct WindowKeyCommandTests {
    @Test func windowCommandsRunByKeyAndNameAndComeLastInTheHelp() {
        let app = makeShoppingApp()
        var quits = 0
        app.window.keyCommands = [
            KeyCommand("Quit", keys: [KeyPress("q")], typed: "quit", help: "Leave the app") { _ in
                quits += 1
                return .handled
            },
            KeyCommand("Delete all", keys: [KeyPress("d")], typed: "delete", help: "Hidden by the list's") {
                _ in
                .failed("the list's command should win")
            },
        ]
        let pilot = TerminalPilot(window: app.window, size: Size(width: 40, height: 12))
        pilot.press(KeyPress("q"))
        #expect(app.window.perform(TerminalCommand("quit")!) == .handled)
        #expect(quits == 2)
        #expect(pilot.screen.contains("d Delete  ? Help  q Quit"))
        let help = KeyCommand.helpText(for: app.window.availableKeyCommands)
        #expect(help.hasSuffix("q, quit                Leave the app"))
        #expect(!help.contains("Delete all"))
        #expect(app.window.commandCompletions(for: "de") == ["delete"])
        #expect(app.window.commandCompletions(for: "") == ["back", "delete", "quit", "tab"])
        #expect(app.window.commandCompletions(for: "delete 1").isEmpty)
    }
}
