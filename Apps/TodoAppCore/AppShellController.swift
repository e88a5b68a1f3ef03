import HeadlessUI
import Layout
import LayoutDSL
import RIBs
import RIBsHeadlessUI
import TerminalCore

/// The frame around the app's screens: the RIB tree's root on top, then one status line (which
/// becomes the `:` command prompt while one is typed), then a help bar with the keys that apply
/// now. It owns the app's own commands: help, the RIB tree, quit, and the prompt. The status
/// line is the window's: the screens and the shell post to it (`Window.post(_:from:)`), and the
/// newest post of a controller on screen shows.
///
/// Typed lines, from the prompt or a script, go through ``run(_:)``: a command no screen on show
/// knows says where it belongs instead.
///
/// The RIB tree launches into it as into a window (it is the tree's `WindowControllable`).
@MainActor
final class AppShellController: ViewController, WindowControllable {
    private(set) var content: ViewController?
    private let contentArea = View()
    let statusBar = StatusBar()
    let prompt = CommandPromptField()
    let helpBar = AppHelpBar()
    /// Called by `quit`, `q` and `exit`.
    var onQuit: @MainActor () -> Void = {}
    /// The RIB tree, for `tree`.
    var treeText: @MainActor () -> String = { "" }

    // MARK: WindowControllable

    /// Shows the RIB tree's root above the status line.
    func setRootViewController(_ viewController: any ViewControllable) {
        guard let controller = viewController as? ViewController else { return }
        loadViewIfNeeded()
        if let content {
            content.willMove(toParent: nil)
            content.view.removeFromSuperview()
            content.removeFromParent()
        }
        content = controller
        addChild(controller)
        contentArea.addSubview(controller.view)
        _ = controller.view.pinEdges(to: contentArea, identifier: "AppShell-content")
        controller.didMove(toParent: self)
    }

    /// Shows the window the shell is the root of.
    func makeKeyAndVisible() {
        view.window?.makeKeyAndVisible()
    }

    // MARK: Layout

    override func loadView() {
        let root = View()
        view = root
        root.addSubview(contentArea)
        prompt.isBordered = false
        prompt.prompt = ":"
        prompt.isHidden = true
        prompt.onSubmit = { [weak self] line in self?.submitPrompt(line) }
        prompt.onCancel = { [weak self] in self?.closePrompt() }
        prompt.completion = { [weak self] text in self?.view.window?.commandCompletions(for: text) ?? [] }
        for subview in [statusBar, prompt, helpBar] { root.addSubview(subview) }
        makeLayout {
            _ = try contentArea.ndl.makeConstraints { make in
                make.top.left.right.equalToSuperview()
                make.bottom.equalTo(statusBar.ndl.top)
            }
            _ = try statusBar.ndl.makeConstraints { make in
                make.left.right.equalToSuperview()
                make.height.equalTo(1)
                make.bottom.equalTo(helpBar.ndl.top)
            }
            _ = try prompt.ndl.makeConstraints { make in
                make.left.right.equalToSuperview().inset(1)
                make.top.equalTo(statusBar.ndl.top)
                make.bottom.equalTo(statusBar.ndl.bottom)
            }
            _ = try helpBar.ndl.makeConstraints { make in
                make.left.right.bottom.equalToSuperview()
                make.height.equalTo(1)
            }
        }
    }

    override var visibleChild: ViewController? { content }

    // MARK: Typed commands

    /// Runs one typed line: a sheet on show (help, the tree) closes first, then the screens on
    /// show, deepest first, and this shell get the command. Returns what came of it; the status
    /// line says why a command failed or where it belongs.
    @discardableResult
    func run(_ line: String) -> CommandResult {
        guard let command = TerminalCommand(line), let window = view.window else { return .handled }
        if presentedViewController != nil { dismiss() }
        // A new command starts on a clear line: what it posts, or nothing.
        post(nil)
        let result = window.perform(command)
        switch result {
        case .handled: break
        case .failed(let reason): post(.failure(reason))
        case .notHandled: post(StatusMessage(CommandPlaces.notHere(command.name), kind: .failure))
        }
        return result
    }

    private func openPrompt() {
        statusBar.isHidden = true
        prompt.isHidden = false
        prompt.text = ""
        view.window?.focus(prompt)
    }

    private func closePrompt() {
        prompt.isHidden = true
        statusBar.isHidden = false
        view.window?.focus(nil)
    }

    private func submitPrompt(_ line: String) {
        closePrompt()
        run(line)
    }

    // MARK: The app's own commands

    override var keyCommands: [KeyCommand] {
        [
            KeyCommand(
                "Command", keys: [KeyPress(":")], help: "Type a command, with history (Up) and Tab completion"
            ) { [weak self] _ in
                self?.openPrompt()
                return .handled
            },
            KeyCommand(
                "Help", keys: [KeyPress("?"), KeyPress(.function(1))], typed: "help",
                help: "Every key and command", showsInHelpBar: false
            ) { [weak self] _ in
                self?.showHelp()
                return .handled
            },
            KeyCommand("Tree", typed: "tree", help: "The RIB tree, as attached now") { [weak self] _ in
                guard let self else { return .handled }
                present(TextSheetController(title: "RIB tree", text: treeText()))
                return .handled
            },
            KeyCommand(
                "Quit", keys: [KeyPress("q")], typed: "quit", help: "Quit (Ctrl-C too)", showsInHelpBar: false
            ) { [weak self] _ in
                self?.onQuit()
                return .handled
            },
            KeyCommand("Exit", typed: "exit", help: "Quit", showsInHelpBar: false) { [weak self] _ in
                self?.onQuit()
                return .handled
            },
        ]
    }

    private func showHelp() {
        guard let window = view.window else { return }
        // Two columns where they fit; on a narrow screen each command over its explanation.
        let narrow = window.size.width < 60
        let text = """
            Here:
            \(KeyCommand.helpText(for: window.availableKeyCommands, narrow: narrow))

            \(CommandPlaces.helpText(narrow: narrow))

            Ctrl-L redraws, Ctrl-Z suspends, Ctrl-C quits. Esc, q or Enter closes this.
            """
        // Over the whole window: a sheet with a margin would show slivers of the screen under it
        // at its edges, cut mid-word, since this one takes all the room there is.
        let sheet = TextSheetController(title: "Keys and commands · Esc closes", text: text)
        sheet.modalPresentationStyle = .fullScreen
        present(sheet)
    }
}

/// The `:` prompt: a line editor with history and completion, which Esc closes.
@MainActor
final class CommandPromptField: TextField {
    var onCancel: @MainActor () -> Void = {}

    override func handleKey(_ press: KeyPress) -> Bool {
        if press == KeyPress(.escape) || (press == KeyPress("c", modifiers: .control) && text.isEmpty) {
            onCancel()
            return true
        }
        return super.handleKey(press)
    }
}

/// The help bar with `? Help  q Quit` always at its right end, and the keys of the screen on show
/// from the left, as many whole ones as fit before them: on a narrow screen the way to every other
/// key stays visible.
@MainActor
final class AppHelpBar: HelpBar {
    /// Drawn at the right end whatever the width.
    static let pinned = [("?", "Help"), ("q", "Quit")]

    override func draw(in context: inout DrawingContext) {
        let pinnedWidth = Self.pinned.reduce(0) { $0 + $1.0.terminalWidth + 1 + $1.1.terminalWidth + 2 }
        var x = max(1, context.width - pinnedWidth + 1)
        for (key, title) in Self.pinned where x + key.terminalWidth + 1 + title.terminalWidth <= context.width
        {
            x += context.draw(key, x: x, y: 0, style: keyStyle) + 1
            x += context.draw(title, x: x, y: 0, style: titleStyle) + 2
        }
        let room = context.width - pinnedWidth
        x = 1
        for item in items {
            let width = item.key.terminalWidth + 1 + item.title.terminalWidth
            guard x + width <= room else { break }
            x += context.draw(item.key, x: x, y: 0, style: keyStyle) + 1
            x += context.draw(item.title, x: x, y: 0, style: titleStyle) + 2
        }
    }
}
