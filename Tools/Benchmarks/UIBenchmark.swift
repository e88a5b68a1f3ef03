import ArgumentParser
import DeclarativeUI
import HeadlessUI
import Layout
import LayoutDSL
import TerminalCore

/// `bench ui`: the time per frame (layout plus render) of a typical 80×24 screen and of a
/// 10,000-row list while it scrolls, against writing the same screen's text by hand.
struct UIBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui",
        abstract:
            "Layout and render per frame, bytes written per frame, key-to-frame latency, first frames, and image decode and draw."
    )

    @Option(help: "Frames per measurement.")
    var frames = 500

    @Option(help: "Repetitions; the median is reported.")
    var repetitions = 7

    @Option(help: "Key presses timed for the key-to-frame latency.")
    var keyPresses = 5_000

    @MainActor
    func run() async throws {
        #if DEBUG
            print("warning: this is a debug build; run `swift run -c release bench ui` for real figures.")
        #endif
        let frameCount = frames
        print("HeadlessUI benchmark: median of \(repetitions) runs of \(frameCount) frames, 80x24\n")

        // The peer: the same screen's text written line by line with padding, as a hand-made
        // terminal UI would, with no views, layout or canvas.
        let todos = (0..<10_000).map { "Todo number \($0) — 할 일 \($0)" }
        var offset = 0
        let handWritten = Measurement.median(repetitions: repetitions) {
            for _ in 0..<frameCount {
                offset = (offset + 1) % 9_000
                consume(handWrittenFrame(todos: todos, offset: offset))
            }
        }

        let screen = BenchScreen(todos: todos)
        let firstFrame = Measurement.median(repetitions: repetitions) {
            let fresh = BenchScreen(todos: todos)
            consume(fresh.window.render().text())
        }
        _ = screen.window.render()
        var counter = 0
        let typical = Measurement.median(repetitions: repetitions) {
            for _ in 0..<frameCount {
                counter += 1
                screen.list.status.text = "\(counter) left"
                screen.list.todos[0] = "Changed \(counter)"
                screen.list.table.reloadData()
                consume(screen.window.render().text())
            }
        }
        let scroll = Measurement.median(repetitions: repetitions) {
            for _ in 0..<frameCount {
                screen.list.table.contentOffset = (screen.list.table.contentOffset + 1) % 9_000
                consume(screen.window.render().text())
            }
        }
        let resizeFrames = max(1, frameCount / 10)
        let resize = Measurement.median(repetitions: repetitions) {
            for index in 0..<resizeFrames {
                screen.window.resize(
                    to: index.isMultiple(of: 2) ? Size(width: 100, height: 30) : Size(width: 80, height: 24))
                consume(screen.window.render().text())
            }
        }
        screen.window.resize(to: Size(width: 80, height: 24))

        let declarative = DeclarativeBench()
        _ = declarative.window.render()
        let stateChange = Measurement.median(repetitions: repetitions) {
            for _ in 0..<frameCount {
                declarative.tap()
                consume(declarative.window.render().text())
            }
        }

        let perFrame = handWritten / Double(frameCount)
        // The 2 ms goal is per redrawn frame; the first frame builds the screen and has none.
        func row(_ name: String, _ seconds: Double, frames: Int, hasGoal: Bool = true) {
            let each = seconds / Double(frames)
            let goal = !hasGoal ? "—" : each < 0.002 ? "yes" : "no"
            print(
                name.padding(toLength: 46, withPad: " ", startingAt: 0)
                    + "\(microseconds(each))".leftPadded(10)
                    + Measurement.ratio(each / perFrame).leftPadded(10)
                    + goal.leftPadded(8))
        }
        print(
            "frame".padding(toLength: 46, withPad: " ", startingAt: 0) + "per frame".leftPadded(10)
                + "vs hand".leftPadded(10) + "< 2 ms".leftPadded(8))
        print(
            "hand-written text of the same screen (peer)".padding(toLength: 46, withPad: " ", startingAt: 0)
                + microseconds(perFrame).leftPadded(10) + "1.00×".leftPadded(10))
        row("typical screen: text changes, layout, render", typical, frames: frameCount)
        row("10,000-row list: scroll one row, render", scroll, frames: frameCount)
        row("resize 80x24 <-> 100x30, render", resize, frames: resizeFrames)
        row("declarative screen: state change, render", stateChange, frames: frameCount)
        row("first frame: build, layout, render", firstFrame, frames: 1, hasGoal: false)

        try UIRuntimeBenchmark(repetitions: repetitions, keyPresses: keyPresses).run()
    }

    private func microseconds(_ seconds: Double) -> String {
        "\(Int((seconds * 1e6).rounded())) µs"
    }
}

/// The typical screen: tabs, a navigation bar, a list of todos and a status line.
@MainActor
final class BenchScreen {
    let window = Window(size: Size(width: 80, height: 24))
    let list: BenchList

    init(todos: [String]) {
        list = BenchList(todos: todos)
        let navigation = NavigationController(rootViewController: list)
        let profile = ViewController()
        profile.title = "Profile"
        let tabs = TabBarController()
        tabs.viewControllers = [navigation, profile]
        window.rootViewController = tabs
        window.makeKeyAndVisible()
    }
}

@MainActor
final class BenchList: ViewController, TableViewDataSource {
    let table = TableView()
    let status = Label("0 left")
    var todos: [String]

    init(todos: [String]) {
        self.todos = todos
        super.init()
        title = "Todos"
    }

    override func viewDidLoad() {
        view.addSubview(table)
        view.addSubview(status)
        table.dataSource = self
        _ = try? table.ndl.makeConstraints { make in
            make.top.leading.trailing.equalToSuperview()
            make.bottom.equalTo(status.ndl.top)
        }
        _ = try? status.ndl.makeConstraints { make in
            make.leading.trailing.bottom.equalToSuperview().inset(1)
        }
    }

    func numberOfRows(in tableView: TableView) -> Int { todos.count }

    func tableView(_ tableView: TableView, cellForRowAt row: Int) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "todo")
        cell.textLabel.text = "\(row + 1). \(todos[row])"
        cell.accessoryType = row.isMultiple(of: 3) ? .checkmark : .none
        return cell
    }
}

/// A declarative screen whose state changes every frame.
@MainActor
final class DeclarativeBench {
    struct Screen: Element {
        @State var count = 0
        var body: some Element {
            VStack(spacing: 1) {
                Text("Tapped \(count) times").bold()
                HStack {
                    Button("Tap") { count += 1 }
                    Spacer()
                    Text("right")
                }
                Text("A longer paragraph that wraps over a couple of lines in the eighty-cell screen.")
                Spacer()
            }
            .padding(1)
            .border(.rounded, title: "Counter")
        }
    }

    let window = Window(size: Size(width: 80, height: 24))
    private var button: HeadlessUI.Button?

    init() {
        window.rootViewController = HostingController(rootElement: Screen())
        window.makeKeyAndVisible()
    }

    func tap() {
        if button == nil { button = find(in: window) }
        button?.tap()
    }

    private func find(in view: View) -> HeadlessUI.Button? {
        if let button = view as? HeadlessUI.Button { return button }
        return view.subviews.lazy.compactMap(find(in:)).first
    }
}

/// The peer's frame: the same bars, rows and status line, padded by hand.
private func handWrittenFrame(todos: [String], offset: Int) -> String {
    var lines: [String] = []
    lines.reserveCapacity(24)
    lines.append(String(repeating: " ", count: 37) + "Todos")
    lines.append(String(repeating: "─", count: 80))
    for row in offset..<(offset + 19) {
        let text = " \(row + 1). \(todos[row])"
        let mark = row.isMultiple(of: 3) ? "✓" : " "
        lines.append(text + String(repeating: " ", count: max(0, 78 - text.terminalWidth)) + mark + "│")
    }
    lines.append(" \(offset) left")
    lines.append(String(repeating: "─", count: 80))
    lines.append(" [1 Todos]  2 Profile")
    return lines.joined(separator: "\n")
}

/// Keeps the optimiser from dropping a frame nobody reads.
@inline(never)
private func consume(_ text: String) {
    if text.utf8.count == 1 { print(text) }
}
