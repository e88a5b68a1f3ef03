import ArgumentParser
import Data
import Domain
import Foundation
import HeadlessUI
import LocalProvider
import Subprocess
import SystemPackage

/// `bench app`: the built TodoApp-Dog (release), as a user runs it: the time from starting the
/// process to its first frame, and the time per typed command with 10,000 todos; then, in this
/// process, a key press to its frame with 10,000 todos, and a photo's bytes to the frame that
/// shows it. Peers, measured in the same run: the same executable printing `--help` (a start
/// with no UI), the same commands and keys on a 10-todo list, and the photo decoded in full.
struct AppBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract:
            "TodoApp-Dog: cold start to the first frame, a command and a key with 10,000 todos, a photo to its frame."
    )

    @Option(help: "Repetitions; the median is reported.")
    var repetitions = 5

    @Option(help: "Commands per latency run.")
    var commands = 100

    @Option(help: "Todos in the large list.")
    var todos = 10_000

    func run() async throws {
        #if DEBUG
            print("warning: this is a debug build; run `swift run -c release bench app` for real figures.")
        #endif
        let app = try await AppUnderTest()
        print("TodoApp benchmark: \(app.executable.path), median of \(repetitions), 80x24, --offline\n")

        let bareStart = try await Measurement.median(repetitions: repetitions) {
            try await app.runToEnd(arguments: ["--help"])
        }
        let firstFrame = try await Measurement.median(repetitions: repetitions) {
            try await app.timeToFirstFrame()
        }

        let script = Self.script(count: commands)
        var perCommand: [Int: Double] = [:]
        for size in [10, todos] {
            try app.resetData(todoCount: size)
            let quitOnly = try await Measurement.median(repetitions: repetitions) {
                try await app.runScript(["quit"])
            }
            // The script toggles and renames, so the list keeps its size from run to run.
            let withCommands = try await Measurement.median(repetitions: repetitions) {
                try await app.runScript(script + ["quit"])
            }
            perCommand[size] = max(0, withCommands - quitOnly) / Double(script.count)
        }
        let firstFrameLarge = try await Measurement.median(repetitions: repetitions) {
            try await app.timeToFirstFrame()
        }
        let small = perCommand[10] ?? .nan
        let large = perCommand[todos] ?? .nan
        var perKey: [Int: (move: Double, toggle: Double)] = [:]
        for size in [10, todos] {
            try app.resetData(todoCount: size)
            perKey[size] = try await Self.keys(folder: app.dataFolder, repetitions: max(repetitions, 50))
        }
        let photo = try Data(contentsOf: app.samplePhoto)
        let (photoScaled, photoFull) = try await Self.photoTimes(photo, repetitions: max(repetitions, 20))

        func row(_ name: String, _ value: Double, _ peer: Double, goal: Double) {
            print(
                name.padding(toLength: 44, withPad: " ", startingAt: 0)
                    + Measurement.milliseconds(value).leftPadded(12)
                    + Measurement.ratio(value / peer).leftPadded(10)
                    + (value < goal ? "yes" : "no").leftPadded(8))
        }
        print(
            "measurement".padding(toLength: 44, withPad: " ", startingAt: 0) + "time".leftPadded(12)
                + "vs peer".leftPadded(10) + "goal".leftPadded(8))
        print(
            "peer: process start, `--help`".padding(toLength: 44, withPad: " ", startingAt: 0)
                + Measurement.milliseconds(bareStart).leftPadded(12))
        row("cold start to the first frame (< 50 ms)", firstFrame, bareStart, goal: 0.05)
        row(
            "… with \(Measurement.grouped(Double(todos))) todos saved", firstFrameLarge, bareStart, goal: 0.05
        )
        print(
            "peer: per command, 10 todos".padding(toLength: 44, withPad: " ", startingAt: 0)
                + Measurement.milliseconds(small).leftPadded(12))
        row("per command, \(Measurement.grouped(Double(todos))) todos (< 10 ms)", large, small, goal: 0.01)
        let smallKeys = perKey[10] ?? (.nan, .nan)
        let largeKeys = perKey[todos] ?? (.nan, .nan)
        print(
            "peer: arrow key to frame, 10 todos".padding(toLength: 44, withPad: " ", startingAt: 0)
                + Measurement.milliseconds(smallKeys.move).leftPadded(12))
        row(
            "arrow key to frame, \(Measurement.grouped(Double(todos))) todos (< 5 ms)", largeKeys.move,
            smallKeys.move, goal: 0.005)
        print(
            "peer: Space (toggle, saved), 10 todos".padding(
                toLength: 44, withPad: " ", startingAt: 0)
                + Measurement.milliseconds(smallKeys.toggle).leftPadded(12))
        row(
            "Space to frame, \(Measurement.grouped(Double(todos))) todos (< 5 ms)", largeKeys.toggle,
            smallKeys.toggle, goal: 0.005)
        print(
            "peer: photo decoded in full, drawn".padding(toLength: 44, withPad: " ", startingAt: 0)
                + Measurement.milliseconds(photoFull).leftPadded(12))
        row("photo bytes to frame (< 50 ms)", photoScaled, photoFull, goal: 0.05)
        print(
            """

            A command's time includes its save (one fsynced journal line; the list written whole every 256 changes), \
            layout, drawing and printing the frame. A key's is measured in this process: the key through \
            TerminalApplication, the reactor's work and save, and the frame's bytes. The photo is the sample cat \
            (\(app.samplePhoto.lastPathComponent), 451×300 PNG) decoded and drawn in an 80×24 window.
            """)
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
            "tab profile", "tab todo", "new", "back",
        ]
        return (0..<count).map { cycle[$0 % cycle.count] }
    }
}

/// The release TodoAppDog next to the bench binary, with a private data folder. Runs are
/// awaited through swift-subprocess, so the benchmark holds no thread of the cooperative pool
/// while the app works.
private struct AppUnderTest {
    let executable: URL
    let home: URL

    init() async throws {
        let bench = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        executable = bench.deletingLastPathComponent().appendingPathComponent("TodoAppDog")
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
        home = FileManager.default.temporaryDirectory.appendingPathComponent("bench-app-\(UUID().uuidString)")
    }

    /// Where the flavor's todos are kept.
    var dataFolder: URL { home.appendingPathComponent("data/TodoApp-Dog") }

    /// The sample cat the app ships, from the sources next to this benchmark's.
    var samplePhoto: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Apps/TodoAppCore/Samples/cat-chelsea.png")
    }

    private var environment: Environment {
        .inherit.updating([
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "TODOAPP_HOME": nil,
        ])
    }

    /// Replaces the flavor's todos with `todoCount` of them.
    func resetData(todoCount: Int) throws {
        let folder = dataFolder
        if FileManager.default.fileExists(atPath: folder.path) {
            try FileManager.default.removeItem(at: folder)
        }
        let todos = (0..<todoCount).map { Todo(title: "Todo number \($0)", isDone: $0 % 3 == 0) }
        try StoredTodoRepository(folder: folder).replace(with: todos)
    }

    func runToEnd(arguments: [String]) async throws {
        let run = try await Subprocess.run(
            .path(FilePath(executable.path)), arguments: Arguments(arguments), environment: environment,
            output: .discarded, error: .discarded)
        guard run.terminationStatus.isSuccess else {
            throw ValidationError("TodoAppDog exited with \(run.terminationStatus)")
        }
    }

    func runScript(_ commands: [String]) async throws {
        let run = try await Subprocess.run(
            .path(FilePath(executable.path)), arguments: ["--script", "-", "--size", "80x24", "--offline"],
            environment: environment, input: .string(commands.joined(separator: "\n") + "\n"),
            output: .discarded, error: .discarded)
        guard run.terminationStatus.isSuccess else {
            throw ValidationError("TodoAppDog exited with \(run.terminationStatus)")
        }
    }

    /// Starts the app and reads until its first frame is complete (the line under it), then
    /// lets it quit.
    func timeToFirstFrame() async throws {
        let marker = "Press ? for the keys"
        let run = try await Subprocess.run(
            .path(FilePath(executable.path)), arguments: ["--script", "-", "--size", "80x24", "--offline"],
            environment: environment, input: .inputWriter, output: .sequence, error: .discarded
        ) { execution in
            var printed = ""
            var output = execution.standardOutput.makeAsyncIterator()
            while !printed.contains(marker), let chunk = try await output.next() {
                printed += chunk.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            }
            _ = try await execution.standardInputWriter.write("quit\n")
            try await execution.standardInputWriter.finish()
            while try await output.next() != nil {}
        }
        guard run.terminationStatus.isSuccess else {
            throw ValidationError("TodoAppDog exited with \(run.terminationStatus)")
        }
    }
}
