import ArgumentParser
import Foundation
import Layout

/// `bench layout`: the solver against kiwisolver on the same layout-shaped systems, in one run.
struct LayoutBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract:
            "Solve 1,000- and 10,000-view chains and grids from scratch, and resize 1,000 times; against kiwisolver."
    )

    @Option(help: "Resizes of the 1,000-view systems.")
    var resizes = 1_000

    @Option(help: "Repetitions; the median is reported.")
    var repetitions = 3

    // The defaults are small on purpose: these chain and grid shapes fill the simplex tableau
    // in quadratically (each `left` becomes a sum of every earlier width), in kiwisolver as much
    // as here — at 100 grid cells kiwisolver itself needs seconds. Layouts shaped like real
    // screens, at 1,000 and 10,000 views, are the next step for this benchmark.
    @Option(
        parsing: .upToNextOption, help: "View counts; the first is the small system, the last the large one.")
    var views: [Int] = [50, 100]

    struct Timing: Decodable {
        var scratch: Double
        var resize: Double
    }

    func run() throws {
        #if DEBUG
            print("warning: this is a debug build; run `swift run -c release bench layout` for real figures.")
        #endif
        var ours: [String: Timing] = [:]
        for count in views {
            for (name, build) in [("chain", LayoutSystem.chain), ("grid", LayoutSystem.grid)] {
                ours["\(name)-\(count)"] = try measure(
                    build(count), resizes: count == views.first ? resizes : 100)
            }
        }
        let theirs = try kiwisolver(views: views)

        print(
            "Layout benchmark: median of \(repetitions); kiwisolver \(kiwisolverVersion()) (C++ core) in the same run\n"
        )
        print(
            "system         from scratch: ours    kiwisolver   ratio    resize: ours      kiwisolver   ratio")
        for key in views.flatMap({ ["chain-\($0)", "grid-\($0)"] }) {
            guard let mine = ours[key], let kiwi = theirs[key] else { continue }
            print(
                key.padding(toLength: 15, withPad: " ", startingAt: 0)
                    + Measurement.milliseconds(mine.scratch).padding(
                        toLength: 14, withPad: " ", startingAt: 0)
                    + Measurement.milliseconds(kiwi.scratch).padding(
                        toLength: 13, withPad: " ", startingAt: 0)
                    + Measurement.ratio(mine.scratch / kiwi.scratch).padding(
                        toLength: 17, withPad: " ", startingAt: 0)
                    + "\(microseconds(mine.resize))".padding(toLength: 18, withPad: " ", startingAt: 0)
                    + "\(microseconds(kiwi.resize))".padding(toLength: 13, withPad: " ", startingAt: 0)
                    + Measurement.ratio(mine.resize / kiwi.resize))
        }
        for shape in ["chain", "grid"] {
            if let first = views.first, let last = views.last, first != last,
                let small = ours["\(shape)-\(first)"], let large = ours["\(shape)-\(last)"]
            {
                print(
                    "\(shape): \(last)/\(first) views, from-scratch scaling \(Measurement.ratio(large.scratch / small.scratch))"
                )
            }
        }
    }

    private func measure(_ system: @autoclosure () -> LayoutSystem, resizes: Int) throws -> Timing {
        let clock = ContinuousClock()
        var scratch: [Double] = []
        var perResize: [Double] = []
        for _ in 0..<repetitions {
            let layout = system()
            let solver = Solver()
            var start = clock.now
            for constraint in layout.constraints { try solver.addConstraint(constraint) }
            solver.updateVariables()
            scratch.append(Measurement.seconds(clock.now - start))
            try solver.addEditVariable(layout.containerWidth, strength: .strong)
            start = clock.now
            for step in 0..<resizes {
                try solver.suggestValue(layout.containerWidth, Double(800 + step % 200))
                solver.updateVariables()
            }
            perResize.append(Measurement.seconds(clock.now - start) / Double(max(1, resizes)))
        }
        return Timing(
            scratch: scratch.sorted()[scratch.count / 2], resize: perResize.sorted()[perResize.count / 2])
    }

    private func kiwisolver(views: [Int]) throws -> [String: Timing] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "kiwi_layout_bench.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", script.path] + views.map(String.init) + [
                "--resizes", String(resizes), "--repetitions", String(repetitions),
            ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ValidationError(
                "kiwi_layout_bench.py failed; is kiwisolver installed? `python3 -m pip install kiwisolver`")
        }
        return try JSONDecoder().decode([String: Timing].self, from: data)
    }

    private func kiwisolverVersion() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import kiwisolver; print(kiwisolver.__version__)"]
        let output = Pipe()
        process.standardOutput = output
        guard (try? process.run()) != nil else { return "?" }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func microseconds(_ seconds: Double) -> String {
        "\(Int((seconds * 1_000_000).rounded())) µs"
    }
}
