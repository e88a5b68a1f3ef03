import ArgumentParser
import Data
import Domain
import Foundation
import LocalProvider
import Subprocess
import SystemPackage

/// `bench app`: the built TodoApp-Dog (release), as a user runs it: the time from starting the
/// process to its first frame, and the time per command with 10,000 todos. Peers, measured in
/// the same run: the same executable printing `--help` (a start with no UI), and the same
/// commands on a 10-todo list.
struct AppBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "TodoApp-Dog: cold start to the first frame, and latency per command with 10,000 todos.")

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
        row("cold start to the first frame (< 100 ms)", firstFrame, bareStart, goal: 0.1)
        row("… with \(Measurement.grouped(Double(todos))) todos saved", firstFrameLarge, bareStart, goal: 0.1)
        print(
            "peer: per command, 10 todos".padding(toLength: 44, withPad: " ", startingAt: 0)
                + Measurement.milliseconds(small).leftPadded(12))
        row("per command, \(Measurement.grouped(Double(todos))) todos (< 10 ms)", large, small, goal: 0.01)
        print(
            "\nA command's time includes its save (one fsynced journal line; the list written whole every 256 changes), layout, drawing and printing the frame."
        )
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

    private var environment: Environment {
        .inherit.updating([
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "TODOAPP_HOME": nil,
        ])
    }

    /// Replaces the flavor's todos with `todoCount` of them.
    func resetData(todoCount: Int) throws {
        let folder = home.appendingPathComponent("data/TodoApp-Dog")
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
        let marker = "Type `help`"
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
