import ArgumentParser
import Foundation
import HeadlessUI
import TerminalCore
import TerminalRuntime

/// `bench app`: the built TodoApp-Dog (release), as a user runs it. On a pseudo-terminal of the
/// benchmark's own, which answers the app as xterm does: the time from starting the process to
/// its first whole frame, and from a key written to the frame that shows it, with 10,000 todos.
/// In this process: the same keys through the app's screens alone, and a photo's bytes to the
/// frame that shows it. With a script: the time per typed command. Peers, measured in the same
/// run: the same executable printing `--help` (a start with no UI), the same keys and commands
/// on a 10-todo list, and the photo decoded in full. With `--baseline`, a TodoAppDog built from
/// another commit runs the same script measurements in the same run.
struct AppBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract:
            "TodoApp-Dog: cold start to the first frame, a key and a command with 10,000 todos, a photo to its frame."
    )

    @Option(help: "Repetitions; the median is reported.")
    var repetitions = 5

    @Option(help: "Key presses per latency run.")
    var keys = 50

    @Option(help: "Commands per latency run.")
    var commands = 100

    @Option(help: "Todos in the large list.")
    var todos = 10_000

    @Option(
        help: ArgumentHelp(
            "A TodoAppDog built from another commit, measured beside this one with a script.",
            valueName: "executable"))
    var baseline: String?

    @Flag(help: "Only the figures beside --baseline.")
    var onlyBaseline = false

    func validate() throws {
        if onlyBaseline && baseline == nil { throw ValidationError("--only-baseline needs --baseline.") }
    }

    func run() async throws {
        #if DEBUG
            print("warning: this is a debug build; run `swift run -c release bench app` for real figures.")
        #endif
        let app = try await AppUnderTest.nextToBench()
        defer { app.cleanUp() }
        let script = Self.script(count: commands)
        if onlyBaseline, let baseline {
            print("TodoApp benchmark: \(app.executable.path), median of \(repetitions), 80x24, --offline")
            return try await compare(
                app, with: AppUnderTest(executable: URL(fileURLWithPath: baseline)), script: script)
        }
        let large = Measurement.grouped(Double(todos))
        print("TodoApp benchmark: \(app.executable.path), median of \(repetitions), 80x24, --offline\n")
        let table = Table()
        table.header()

        let bareStart = try await Measurement.median(repetitions: repetitions) {
            try await app.runToEnd(arguments: ["--help"])
        }
        // First, as it leaves the Profile tab chosen: the measurements below start from fresh data.
        try await app.resetData(todoCount: 10)
        let photoOnTerminal = try await Measurement.medianOfMeasured(repetitions: repetitions) {
            try await app.photoOnTerminal(image: Data(contentsOf: Self.samplePhoto))
        }
        table.peer("process start and exit, `--help`", bareStart)
        for size in [10, todos] {
            try await app.resetData(todoCount: size)
            let start = try await Measurement.medianOfMeasured(repetitions: repetitions) {
                try await app.coldStartOnTerminal()
            }
            table.row(
                "cold start to first frame, \(Measurement.grouped(Double(size))) todos", start, bareStart,
                goal: 0.05)
        }

        var terminalKeys: [Int: (move: Double, toggle: Double)] = [:]
        var appKeys: [Int: (move: Double, toggle: Double)] = [:]
        for size in [10, todos] {
            try await app.resetData(todoCount: size)
            terminalKeys[size] = try await app.keysOnTerminal(repetitions: keys)
            appKeys[size] = try await Self.keys(folder: app.dataFolder, repetitions: keys)
        }
        let small = (terminal: terminalKeys[10] ?? (.nan, .nan), app: appKeys[10] ?? (.nan, .nan))
        let big = (terminal: terminalKeys[todos] ?? (.nan, .nan), app: appKeys[todos] ?? (.nan, .nan))
        table.peer("↓/↑ key to frame, 10 todos", small.terminal.move)
        table.row("↓/↑ key to frame, \(large) todos", big.terminal.move, small.terminal.move, goal: 0.005)
        table.peer("… in the app's screens alone, 10 todos", small.app.move)
        table.row("… in the app's screens alone, \(large) todos", big.app.move, small.app.move, goal: 0.005)
        table.peer("Space (toggle, saved) to frame, 10 todos", small.terminal.toggle)
        table.row(
            "Space (toggle, saved) to frame, \(large) todos", big.terminal.toggle, small.terminal.toggle,
            goal: 0.005)
        table.peer("… in the app's screens alone, 10 todos", small.app.toggle)
        table.row(
            "… in the app's screens alone, \(large) todos", big.app.toggle, small.app.toggle, goal: 0.005)

        var perCommand: [Int: Double] = [:]
        for size in [10, todos] {
            try await app.resetData(todoCount: size)
            perCommand[size] = try await Self.perCommand(app, script: script, repetitions: repetitions)
        }
        table.peer("typed command (script), 10 todos", perCommand[10] ?? .nan)
        table.row(
            "typed command (script), \(large) todos", perCommand[todos] ?? .nan, perCommand[10] ?? .nan,
            goal: 0.01)

        let photo = try Data(contentsOf: Self.samplePhoto)
        let (photoScaled, photoFull) = try await Self.photoTimes(photo, repetitions: max(repetitions, 20))
        table.peer("photo decoded in full, drawn (in-process)", photoFull)
        table.row("… decoded as the app does it", photoScaled, photoFull, goal: 0.05)
        table.row("photo bytes from a loopback API to frame", photoOnTerminal, photoFull, goal: 0.05)

        if let baseline {
            try await compare(
                app, with: AppUnderTest(executable: URL(fileURLWithPath: baseline)), script: script)
        }
        print(
            """

            Cold start runs the app full screen on an 80×24 pseudo-terminal with TERM=xterm-256color, so it \
            asks the terminal about pictures before its first frame (the benchmark answers as xterm does); \
            the time ends when the bytes of the first whole frame (help bar drawn, synchronized update \
            closed) are read. A key's time ends when the frame that shows it is read from the terminal: the \
            key through the app's input, the reactor's work and, for Space, the fsynced save. "In the app's \
            screens alone" is the same key through TerminalApplication in this process, frames to a byte \
            sink. A command's time includes its save, layout, drawing and printing the frame. The photo is \
            the sample cat (\(Self.samplePhoto.lastPathComponent), 451×300 PNG): decoded and drawn in an \
            80×24 window in this process; and served by a loopback Dog API to the app, online on the \
            terminal with its Profile tab shown, from the moment the server hands the bytes over to the \
            frame with the photo's half blocks.
            """)
    }

    /// The seconds per command of `script`: runs with it and without it (start and quit only),
    /// the median of each, the difference shared out.
    static func perCommand(_ app: AppUnderTest, script: [String], repetitions: Int) async throws -> Double {
        let quitOnly = try await Measurement.median(repetitions: repetitions) {
            try await app.runScript(["quit"])
        }
        // The script toggles and renames, so the list keeps its size from run to run.
        let withCommands = try await Measurement.median(repetitions: repetitions) {
            try await app.runScript(script + ["quit"])
        }
        return max(0, withCommands - quitOnly) / Double(script.count)
    }

    /// This build beside `baseline` (another commit's), each with the todos added through its
    /// own commands: the start, first frame and exit of a script, the cold start to the first
    /// whole frame on the terminal, an arrow key and Space to their frames on the terminal (the
    /// median of `--keys` presses each), and the time per command.
    ///
    /// The two builds take turns within each repetition, the first to go alternating, so a
    /// machine that slows down or speeds up during the run moves both builds' samples alike (on
    /// this shared machine the `--help` start has moved from 14.5 to 20.5 ms between two runs).
    /// Beside each median, the median of the repetitions' own ratios: this build's sample over
    /// the baseline's taken next to it.
    func compare(_ app: AppUnderTest, with baseline: AppUnderTest, script: [String]) async throws {
        defer { baseline.cleanUp() }
        print("\nBeside \(baseline.executable.path), the todos added through each build's commands,")
        print("taking turns in each repetition; ratio: the median of the repetitions' own ratios:")
        let table = Table()
        table.header()
        for size in [10, todos] {
            try await app.resetDataThroughCommands(todoCount: size)
            try await baseline.resetDataThroughCommands(todoCount: size)
            var samples = [BuildSamples(), BuildSamples()]
            for repetition in 0..<repetitions {
                for index in repetition.isMultiple(of: 2) ? [0, 1] : [1, 0] {
                    let build = index == 0 ? baseline : app
                    try await samples[index].measure(build, script: script, keys: keys)
                }
            }
            let (base, this) = (samples[0], samples[1])
            let count = Measurement.grouped(Double(size))
            for figure in BuildSamples.Figure.allCases {
                table.peer("baseline: \(figure.name), \(count) todos", base.median(figure, script: script))
                table.row(
                    "this build: \(figure.name), \(count) todos", this.median(figure, script: script),
                    ratio: this.pairedRatio(figure, over: base, script: script))
            }
        }
    }

    /// The sample cat the app ships, from the sources next to this benchmark's.
    static var samplePhoto: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Apps/TodoAppCore/Samples/cat-chelsea.png")
    }

    /// The median photo, scaled while decoded as the app does it, and decoded in full, each
    /// drawn in a frame.
    @MainActor
    static func photoTimes(_ photo: Data, repetitions: Int) throws -> (scaled: Double, full: Double) {
        let scaled = try Measurement.median(repetitions: repetitions) {
            try PhotoDrawing.draw(photo, scaled: true)
        }
        let full = try Measurement.median(repetitions: repetitions) {
            try PhotoDrawing.draw(photo, scaled: false)
        }
        return (scaled, full)
    }

    /// The median arrow key and Space key, each to its frame, over the todos in `folder`.
    @MainActor
    static func keys(folder: URL, repetitions: Int) async throws -> (move: Double, toggle: Double) {
        let screens = try await AppScreens(folder: folder)
        defer { screens.close() }
        let clock = ContinuousClock()
        var moves: [Double] = []
        var toggles: [Double] = []
        for repetition in 0..<repetitions {
            var start = clock.now
            // Down and Up in turn, so that the selection moves every time, at either list size.
            await screens.press(KeyPress(repetition % 2 == 0 ? .down : .up))
            moves.append(Measurement.seconds(clock.now - start))
            start = clock.now
            await screens.press(KeyPress(" "))
            toggles.append(Measurement.seconds(clock.now - start))
        }
        return (moves.sorted()[moves.count / 2], toggles.sorted()[toggles.count / 2])
    }

    /// A mix of what a user does: toggle, rename, filter, scroll, switch tabs, open and leave
    /// the add screen.
    static func script(count: Int) -> [String] {
        let cycle = [
            "done 1", "edit 2 renamed", "filter active", "filter all", "scroll down", "scroll up", "done 1",
            "tab profile", "tab todo", "new", "cancel",
        ]
        var commands = (0..<count).map { cycle[$0 % cycle.count] }
        // The app keeps its tab for the next launch, and the next cold start waits for the list:
        // a script cut off between the two tab commands goes back to the list instead.
        if commands.last == "tab profile" { commands[commands.count - 1] = "tab todo" }
        return commands
    }
}

/// The benchmark's table: a measurement, its time, its ratio to the peer above it, and whether
/// it meets the goal.
private struct Table {
    private func line(_ name: String, _ time: String, _ ratio: String = "", _ goal: String = "") {
        print(
            name.padding(toLength: 62, withPad: " ", startingAt: 0) + time.leftPadded(12)
                + ratio.leftPadded(10)
                + goal.leftPadded(13))
    }

    func header() { line("measurement", "time", "vs peer", "goal") }

    func peer(_ name: String, _ value: Double) { line("peer: " + name, Measurement.milliseconds(value)) }

    /// A measurement against `peer`; `goal`, in seconds, is the bound, if it sets one.
    func row(_ name: String, _ value: Double, _ peer: Double, goal: Double?) {
        let met = goal.map { value < $0 ? "< \(Measurement.milliseconds($0))" : "missed" } ?? ""
        line(name, Measurement.milliseconds(value), Measurement.ratio(value / peer), met)
    }

    /// A measurement beside a peer whose ratio was worked out otherwise (paired samples).
    func row(_ name: String, _ value: Double, ratio: Double) {
        line(name, Measurement.milliseconds(value), Measurement.ratio(ratio))
    }
}
