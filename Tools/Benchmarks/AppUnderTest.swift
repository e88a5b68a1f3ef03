import ArgumentParser
import Data
import Domain
import Foundation
import HeadlessUITesting
import Subprocess
import SystemPackage

/// A built TodoApp-Dog with a private data folder, run as a user runs it: full screen on a
/// pseudo-terminal (``BenchTerminal``), or with a script on standard input. Runs are awaited
/// through swift-subprocess, so the benchmark holds no thread of the cooperative pool while
/// the app works.
struct AppUnderTest {
    let executable: URL
    let home: URL

    /// The TodoAppDog next to the bench binary (built first if it is missing).
    static func nextToBench() async throws -> AppUnderTest {
        let bench = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let executable = bench.deletingLastPathComponent().appendingPathComponent("TodoAppDog")
        if !FileManager.default.isExecutableFile(atPath: executable.path) {
            let configuration = bench.deletingLastPathComponent().lastPathComponent
            print("Building TodoAppDog (\(configuration))…")
            let build = try await Subprocess.run(
                .name("swift"), arguments: ["build", "-c", configuration, "--product", "TodoAppDog"],
                output: .discarded, error: .discarded)
            guard build.terminationStatus.isSuccess else {
                throw ValidationError("could not build TodoAppDog: \(build.terminationStatus)")
            }
        }
        return AppUnderTest(executable: executable)
    }

    init(executable: URL) {
        self.executable = executable
        home = FileManager.default.temporaryDirectory.appendingPathComponent("bench-app-\(UUID().uuidString)")
    }

    /// Where the flavor's todos are kept.
    var dataFolder: URL { home.appendingPathComponent("data/TodoApp-Dog") }

    private var environment: Environment {
        .inherit.updating([
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "TODOAPP_HOME": nil,
        ])
    }

    /// Replaces the flavor's todos with `todoCount` of them, written as this build stores them.
    func resetData(todoCount: Int) async throws {
        try removeData()
        try await StoredTodoRepository(folder: dataFolder).replace(with: Self.todos(count: todoCount))
    }

    /// Replaces the flavor's todos with `todoCount` of them, added by the app itself through
    /// typed commands, for a build whose files this one cannot write (an older commit's).
    func resetDataThroughCommands(todoCount: Int) async throws {
        try removeData()
        let adding = Self.todos(count: todoCount).flatMap { ["new", "save \($0.title)"] }
        // Since issue 21 a line that fails makes the exit status non-zero, so this build
        // says here when it could not add the todos; older builds exit 0 either way.
        try await runScript(adding + ["quit"])
        let toggling = stride(from: 1, through: todoCount, by: 3).map { "done \($0)" }
        try await runScript(toggling + ["quit"])
    }

    private func removeData() throws {
        if FileManager.default.fileExists(atPath: home.path) {
            try FileManager.default.removeItem(at: home)
        }
    }

    /// Removes the private folder.
    func cleanUp() {
        try? FileManager.default.removeItem(at: home)  // a temporary folder; nothing to lose
    }

    private static func todos(count: Int) -> [Todo] {
        (0..<count).map { Todo(title: "Todo number \($0)", isDone: $0 % 3 == 0) }
    }

    /// Runs the app with `arguments` to its end.
    func runToEnd(arguments: [String]) async throws {
        let run = try await Subprocess.run(
            .path(FilePath(executable.path)), arguments: Arguments(arguments), environment: environment,
            output: .discarded, error: .discarded)
        guard run.terminationStatus.isSuccess else {
            throw ValidationError("TodoAppDog exited with \(run.terminationStatus)")
        }
    }

    /// Runs `commands` as a script, at 80×24 and offline.
    func runScript(_ commands: [String]) async throws {
        let run = try await Subprocess.run(
            .path(FilePath(executable.path)), arguments: ["--script", "-", "--size", "80x24", "--offline"],
            environment: environment, input: .string(commands.joined(separator: "\n") + "\n"),
            output: .discarded, error: .discarded)
        guard run.terminationStatus.isSuccess else {
            throw ValidationError("TodoAppDog exited with \(run.terminationStatus) running a script")
        }
    }

    // MARK: On a terminal

    /// What a terminal emulator sets for its programs: an xterm, so the app asks it about
    /// pictures before its first frame (``BenchTerminal`` answers as xterm does).
    private static let terminalEnvironment: [Environment.Key: String?] = [
        "TERM": "xterm-256color", "COLORTERM": "truecolor", "LANG": "C.UTF-8", "LC_ALL": nil, "NO_COLOR": nil,
        "TMUX": nil,
    ]

    /// Whether the screen holds a whole frame of the Todo list: the help bar at the bottom is
    /// drawn and no synchronized update is open.
    static let showsFirstFrame: @Sendable (VirtualTerminal) -> Bool = { screen in
        !screen.modes.contains(2026) && screen.text.contains("Todo number 0")
            && screen.text.split(separator: "\n").last?.contains("? Help") == true
    }

    /// Starts the app full screen on an 80×24 pseudo-terminal and returns the seconds from the
    /// start of the process to its first whole frame; then quits it with `q`.
    func coldStartOnTerminal() async throws -> Double {
        try await onTerminal { terminal, started in
            let shown = try await terminal.moment(when: Self.showsFirstFrame)
            return Measurement.seconds(shown - started)
        }
    }

    /// The median times from a key written to the terminal to the frame that shows it, on an
    /// app started full screen: ↓ and ↑ in turn (the selection mark moves), and Space (the
    /// selected todo toggled and saved).
    func keysOnTerminal(repetitions: Int) async throws -> (move: Double, toggle: Double) {
        try await onTerminal { terminal, _ in
            _ = try await terminal.moment(when: Self.showsFirstFrame)
            var moves: [Double] = []
            var toggles: [Double] = []
            for repetition in 0..<repetitions {
                let before = Self.selectedRow(terminal.screen)
                var start = ContinuousClock.now
                terminal.type(repetition % 2 == 0 ? "\u{1B}[B" : "\u{1B}[A")
                var shown = try await terminal.moment { screen in
                    !screen.modes.contains(2026) && Self.selectedRow(screen) != before
                }
                moves.append(Measurement.seconds(shown - start))
                let row = Self.selectedRow(terminal.screen)
                let toggled = row.contains("[x]") ? "[ ]" : "[x]"
                start = ContinuousClock.now
                terminal.type(" ")
                shown = try await terminal.moment { screen in
                    !screen.modes.contains(2026) && Self.selectedRow(screen).contains(toggled)
                }
                toggles.append(Measurement.seconds(shown - start))
            }
            return (moves.sorted()[moves.count / 2], toggles.sorted()[toggles.count / 2])
        }
    }

    /// The row with the selection mark, `›`.
    private static func selectedRow(_ screen: VirtualTerminal) -> Substring {
        screen.text.split(separator: "\n").first { $0.hasPrefix("›") } ?? ""
    }

    /// Runs the app full screen on an 80×24 pseudo-terminal of its own while `body` drives it
    /// (given the moment just before the process was started), then quits it with `q` and
    /// awaits its end. Offline, or against the photo API at `api`.
    func onTerminal<Result: Sendable>(
        api: URL? = nil, _ body: (BenchTerminal, ContinuousClock.Instant) async throws -> Result
    ) async throws -> Result {
        let terminal = try BenchTerminal(width: 80, height: 24)
        var childEnvironment = environment.updating(Self.terminalEnvironment)
        if let api {
            childEnvironment = childEnvironment.updating(["TODOAPP_API_BASE_URL": api.absoluteString])
        }
        let started = ContinuousClock.now
        let run = try await Subprocess.run(
            .path(FilePath(executable.path)), arguments: api == nil ? ["--offline"] : [],
            environment: childEnvironment,
            input: .fileDescriptor(terminal.slave, closeAfterSpawningProcess: true),
            output: .fileDescriptor(terminal.slave, closeAfterSpawningProcess: false), error: .discarded
        ) { _ in
            let result = try await body(terminal, started)
            terminal.type("q")
            return result
        }
        guard run.terminationStatus.isSuccess else {
            throw ValidationError("TodoAppDog exited with \(run.terminationStatus) on the terminal")
        }
        return run.closureResult
    }
}
