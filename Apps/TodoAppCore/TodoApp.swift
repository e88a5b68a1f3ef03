import ArgumentParser
import Foundation
import HeadlessUI
import Layout
import RIBs
import RIBsHeadlessUI
import Reactor
import Root

/// The headless TodoApp: it launches the RIB tree into a HeadlessUI window, then reads commands
/// (typed, or from `--script`), sends each along the window's responder chain, and draws the
/// frame. The work a command sets going is the reactor actions it sent (``Reactor/SentActions``):
/// a scripted run awaits them before it draws; at the prompt the frame comes at once and is drawn
/// again when they are reduced.
@MainActor
public final class TodoApp {
    /// How a run ended, as the process's exit status.
    enum ExitStatus: Int32, Sendable {
        /// Normal end.
        case success = 0
        /// The RIBs leak detector found a leak.
        case leaked = 3
        /// A bad argument or environment variable (`EX_USAGE`).
        case usage = 64
        /// The data folder or the script could not be opened (`EX_CANTCREAT`).
        case cannotOpen = 73
    }

    private let configuration: AppConfiguration
    private let component: AppComponent
    private let window: Window
    private let router: any LaunchRouting
    private let screen: TerminalScreen
    private let output: (String) -> Void
    private let leakDetector: LeakDetector

    init(configuration: AppConfiguration, screen: TerminalScreen, output: @escaping (String) -> Void)
        throws(AppError)
    {
        self.configuration = configuration
        self.screen = screen
        self.output = output
        leakDetector = LeakDetector(reportsLeaksAsAssertions: false)
        LeakDetector.setInstance(leakDetector)
        component = try AppComponent(configuration: configuration)
        window = Window(size: configuration.size)
        router = RootBuilder(dependency: component).build()
    }

    /// Runs the flavor with the process's arguments and environment; returns the exit status.
    public static func main(flavor: AppFlavor) async -> Int32 {
        ConfigFolder.relaunchIfNeeded()
        let arguments = Array(CommandLine.arguments.dropFirst())
        let name = URL(fileURLWithPath: CommandLine.arguments.first ?? flavor.name).lastPathComponent
        return await run(
            flavor: flavor, arguments: arguments, environment: ProcessInfo.processInfo.environment, name: name
        )
        .rawValue
    }

    /// Runs the flavor; returns how it ended.
    static func run(
        flavor: AppFlavor, arguments: [String], environment: [String: String], name: String
    ) async -> ExitStatus {
        let options: AppOptions
        var configuration: AppConfiguration
        do {
            options = try AppOptions.parse(arguments)
        } catch {
            let code = AppOptions.exitCode(for: error)
            let message = AppOptions.fullMessage(for: error)
            if code == .success {
                print(message)
                return .success
            }
            printError(message)
            return .usage
        }
        do {
            configuration = try AppConfiguration(flavor: flavor, options: options, environment: environment)
        } catch {
            printError("\(name): \(error)")
            return .usage
        }
        if options.size == nil, options.script == nil, let size = Terminal.size() {
            configuration.size = Size(width: max(40, size.width), height: max(12, size.height - 2))
        }
        if !configuration.isOffline, configuration.apiBaseURL == nil,
            let host = configuration.flavor.publicAPI.host
        {
            if await !Reachability.canResolve(host) {
                configuration.isOffline = true
                configuration.offlineReason = "\(host) cannot be resolved: offline, with sample photos."
            }
        }

        let commands: CommandSource
        do {
            commands = try CommandSource(script: options.script)
        } catch {
            printError("\(name): \(error)")
            return .cannotOpen
        }
        let scripted = options.script != nil
        let screen =
            scripted ? TerminalScreen(mode: .append, styled: false, write: writeOut) : TerminalScreen()
        let app: TodoApp
        do {
            app = try TodoApp(configuration: configuration, screen: screen, output: writeOut)
        } catch {
            printError("\(name): \(error)")
            return .cannotOpen
        }
        return await app.run(commands, scripted: scripted)
    }

    /// A scripted run awaits the actions each command sent before it draws, so that frames are
    /// the same on every run. At the prompt, the frame comes at once and is drawn again when work
    /// still under way (a photo on its way) has been reduced.
    private func run(_ commands: CommandSource, scripted: Bool) async -> ExitStatus {
        // A live terminal gets the alternate screen, as full-screen programs do, and its own
        // screen back before any leak is reported.
        screen.useAlternateScreen(true)
        await loop(commands, scripted: scripted)
        for redraw in redraws { redraw.task.cancel() }
        screen.useAlternateScreen(false)
        return await finish()
    }

    private func loop(_ commands: CommandSource, scripted: Bool) async {
        let launched = SentActions.during { router.launch(from: window) }
        message = configuration.offlineReason ?? "Type `help` for the commands."
        await show(after: launched, scripted: scripted)
        while let line = await commands.next() {
            guard let command = TerminalCommand(line) else { continue }
            if scripted { output("> \(command.line)\n") }
            var sent = SentActions.during {}
            switch command.name {
            case "quit", "exit":
                return
            case "help":
                message = AppHelp.text
            case "tree":
                message = RouterTree(router).text
            default:
                var result = CommandResult.notHandled
                sent = SentActions.during { result = window.perform(command) }
                switch result {
                case .handled: message = ""
                case .failed(let reason): message = reason
                case .notHandled: message = "Unknown here: \(command.name). Type `help` for the commands."
                }
            }
            await show(after: sent, scripted: scripted)
        }
    }

    /// What the status line under the frame says: the last command's outcome.
    private var message = ""
    /// The redraws waiting for work still under way at the prompt.
    private var redraws: [(sent: SentActions, task: Task<Void, Never>)] = []

    private func show(after sent: SentActions, scripted: Bool) async {
        if scripted {
            await sent.reduced()
            draw(prompt: false)
            return
        }
        draw(prompt: true)
        redraws.removeAll { $0.sent.isReduced }
        guard !sent.isReduced else { return }
        let redraw = Task { [weak self] in
            await sent.reduced()
            guard !Task.isCancelled, let self else { return }
            self.draw(prompt: true)
        }
        redraws.append((sent, redraw))
    }

    private func draw(prompt: Bool) {
        screen.present(window.render())
        // A live frame ends on its last row; an appended one with an empty line.
        var text = screen.mode == .live ? "\r\n" : ""
        if !message.isEmpty { text += message + "\n" }
        if prompt { text += "\(configuration.flavor.name)> " }
        output(text)
    }

    /// Detaches nothing (the tree lives until the process ends) but waits for the leak checks
    /// of RIBs detached during the run, and reports any leak.
    private func finish() async -> ExitStatus {
        await leakDetector.waitUntilComplete()
        guard leakDetector.leaks.isEmpty else {
            for leak in leakDetector.leaks { printError("RIBs leak: \(leak)") }
            return .leaked
        }
        return .success
    }
}

private func writeOut(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}

private func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
