import ArgumentParser
import Foundation
import HeadlessUI
import Layout
import RIBs
import RIBsHeadlessUI
import Reactor
import Root
import TerminalRuntime

/// The TodoApp: it launches the RIB tree into a HeadlessUI window framed by the app's shell
/// (``AppShellController``: status line, `:` prompt, help bar), then either runs it full-screen
/// in the terminal with ``TerminalApplication`` (keys, mouse, resizes, Ctrl-C and signals, the
/// terminal restored on every way out), or, with `--script` or when standard input is not a
/// terminal, reads typed commands and prints a frame after each.
@MainActor
public final class TodoApp {
    /// How a run ended, as the process's exit status.
    enum ExitStatus: Equatable, Sendable {
        /// Normal end.
        case success
        /// A scripted line failed (`EX_DATAERR`); the lines are on standard error.
        case scriptFailed
        /// The RIBs leak detector found a leak.
        case leaked
        /// A bad argument or environment variable (`EX_USAGE`).
        case usage
        /// The data folder or the script could not be opened (`EX_CANTCREAT`).
        case cannotOpen
        /// The terminal could not be taken over.
        case noTerminal
        /// A signal ended the session (128 + its number, as shells say).
        case signal(Int32)

        var rawValue: Int32 {
            switch self {
            case .success: 0
            case .scriptFailed: 65
            case .leaked: 3
            case .usage: 64
            case .cannotOpen: 73
            case .noTerminal: 74
            case .signal(let number): 128 + number
            }
        }
    }

    let configuration: AppConfiguration
    private let component: AppComponent
    let window: Window
    let shell = AppShellController()
    private let router: any LaunchRouting
    private let leakDetector: LeakDetector
    private var quitRequested = false

    init(configuration: AppConfiguration) throws(AppError) {
        self.configuration = configuration
        leakDetector = LeakDetector(reportsLeaksAsAssertions: false)
        LeakDetector.setInstance(leakDetector)
        component = try AppComponent(configuration: configuration)
        window = Window(size: configuration.size)
        router = RootBuilder(dependency: component).build()
        window.rootViewController = shell
        shell.treeText = { [router] in RouterTree(router).text }
        shell.onQuit = { [weak self] in self?.quitRequested = true }
    }

    /// Launches the RIB tree into the shell; returns the actions the launch sent (the reads of
    /// the todos, the kept tab and filter, the profile), to await before the first frame.
    @discardableResult
    func launch() -> SentActions {
        let launched = SentActions.during { router.launch(from: shell) }
        // A screen's own first message (the todos could not be read) goes first.
        if window.status == nil {
            shell.post(
                configuration.offlineReason.map { StatusMessage($0) }
                    ?? StatusMessage("Press ? for the keys, : to type a command."))
        }
        return launched
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
        // Without a terminal to take over, the lines on standard input are a script.
        let script = options.script ?? (Terminal.isTerminal(STDIN_FILENO) ? nil : "-")
        if options.size == nil, script == nil, let size = Terminal.size() {
            configuration.size = Size(width: max(40, size.width), height: max(12, size.height))
        }
        if !configuration.isOffline, configuration.apiBaseURL == nil,
            let host = configuration.flavor.publicAPI.host
        {
            if await !Reachability.canResolve(host) {
                configuration.isOffline = true
                configuration.offlineReason = "\(host) cannot be resolved: offline, with sample photos."
            }
        }
        var commands: CommandSource?
        if let script {
            do {
                commands = try CommandSource(script: script)
            } catch {
                printError("\(name): \(error)")
                return .cannotOpen
            }
        }
        let app: TodoApp
        do {
            app = try TodoApp(configuration: configuration)
        } catch {
            printError("\(name): \(error)")
            return .cannotOpen
        }
        let status: ExitStatus
        if let commands {
            status = await app.runScript(commands, name: name)
        } else {
            status = await app.runInTerminal(name: name)
        }
        guard status == .success || status == .scriptFailed else { return status }
        return await app.finish() ?? status
    }

    // MARK: In the terminal

    /// Full screen, keys first, until `q`, `quit`, Ctrl-C, the end of input or a signal. The
    /// terminal is given back before this returns.
    private func runInTerminal(name: String) async -> ExitStatus {
        let launched = launch()
        let application = TerminalApplication(window: window)
        application.onCommandFailure = { [weak shell] reason in shell?.post(.failure(reason)) }
        shell.onQuit = { [weak application] in application?.quit() }
        var ending: Result<TerminalApplication.ExitReason, TerminalError> = .success(.quit)
        let work = await SentActions.throughout {
            do throws(TerminalError) {
                // The first frame shows what the launch reads off the main actor (the tab kept
                // last time, the todos), not a screen that changes a moment later; the reads
                // go on while the terminal answers its query. A wait for another process's
                // lock may take seconds; the list says "Reading the todos…" meanwhile.
                ending = .success(
                    try await application.run(firstFrameAfter: {
                        await Self.wait(for: launched, atMost: .milliseconds(250))
                    }))
            } catch {
                ending = .failure(error)
            }
        }
        // A request still on its way (a photo) will never be shown: given up on, not awaited.
        work.cancelTasks()
        await awaitUnfinished(work, name: name)
        switch ending {
        case .success(.signal(let number)): return .signal(number)
        case .success: return .success
        case .failure(let error):
            printError("\(name): \(error)")
            return .noTerminal
        }
    }

    /// The session is over, but a change made just before may still be on its way to the disk,
    /// waiting for another process that holds the data folder's lock (up to its timeout): it is
    /// awaited, so that quitting never drops a change the screen showed. The terminal is the
    /// shell's again, so a wait that lasts is said on standard error, and so is a failed save.
    private func awaitUnfinished(_ work: SentActions, name: String) async {
        guard !work.isReduced else { return }
        let statusBefore = window.status
        let notice = Task { @MainActor in
            try await Task.sleep(for: .milliseconds(200))
            printError("\(name): saving the last changes…")
        }
        await work.reduced()
        notice.cancel()
        if let status = window.status, status != statusBefore, status.kind == .failure {
            printError("\(name): \(status.text)")
        }
    }

    /// Returns once `work` is reduced, or once `limit` has passed, whichever comes first: the
    /// two waits race in a task group, and the one that loses is cancelled.
    private static func wait(for work: SentActions, atMost limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await work.reduced() }
            // The sleep throws only when cancelled, that is when the work won the race.
            group.addTask { try? await Task.sleep(for: limit) }
            _ = await group.next()
            group.cancelAll()
        }
    }

    // MARK: Scripted

    /// Runs each line as typed at the `:` prompt, awaits the work it set going, and prints the
    /// frame after it. A line that fails is reported on standard error with its number, and the
    /// run goes on; the exit status says whether any failed.
    private func runScript(_ commands: CommandSource, name: String) async -> ExitStatus {
        let screen = TerminalScreen(mode: .append, styled: false, write: writeOut)
        // Uncoloured text frames: a photo is drawn with the ASCII brightness ramp, which reads
        // as a picture in a log, where half blocks without colour would not.
        window.capabilities = TerminalCapabilities(colorDepth: .none, isUnicode: true)
        await launch().reduced()
        screen.present(window.render())
        var failedLines: [Int] = []
        while !quitRequested, let line = await commands.next() {
            guard let text = line.command else { continue }
            writeOut("> \(text)\n")
            var result = CommandResult.handled
            await SentActions.during { result = shell.run(text) }.reduced()
            screen.present(window.render())
            switch result {
            case .handled: break
            case .failed, .notHandled:
                failedLines.append(line.number)
                printError("\(name): line \(line.number): \(text): \(window.status?.text ?? "failed")")
            }
        }
        return failedLines.isEmpty ? .success : .scriptFailed
    }

    /// Waits for the leak checks of RIBs detached during the run, and reports any leak; `nil`
    /// when there is none.
    private func finish() async -> ExitStatus? {
        await leakDetector.waitUntilComplete()
        guard leakDetector.leaks.isEmpty else {
            for leak in leakDetector.leaks { printError("RIBs leak: \(leak)") }
            return .leaked
        }
        return nil
    }
}

private func writeOut(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}

private func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
