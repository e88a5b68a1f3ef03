import ArgumentParser
import ConstraintSolver
import Foundation
import Layout
import Subprocess

/// `bench layout`: list and grid screens of 1,000 to 10,000 views solved from scratch, resized,
/// and edited by removing and adding back a required equality, by our solver and by kiwisolver
/// on the very same constraint system, in one run.
struct LayoutBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract:
            "Lay out list and grid screens from scratch, resize them and remove a required constraint; against kiwisolver."
    )

    @Option(help: "Resizes of each screen.")
    var resizes = 100

    @Option(help: "Repetitions; the median is reported.")
    var repetitions = 3

    @Flag(help: "Skip kiwisolver (quick runs while working; the ratios need it).")
    var withoutKiwisolver = false

    @Option(
        help:
            "Seconds kiwisolver may take to solve one screen from scratch before it is reported as not finished."
    )
    var kiwisolverLimit = 60.0

    @Option(parsing: .upToNextOption, help: "View counts of the screens, smallest first.")
    var views: [Int] = [1_000, 2_000, 10_000]

    /// Seconds, per shape and size; or, for kiwisolver, how long it was given.
    struct Timing: Codable {
        /// Adding every constraint to an empty solver, plus updateVariables.
        var scratch: Double
        /// One suggestValue of the root's width, plus updateVariables.
        var resize: Double
        /// Removing the system's `removal` constraint, a required equality.
        var remove: Double
        /// Adding it back, plus updateVariables.
        var readd: Double
        /// Set when kiwisolver took longer than the limit to solve the screen from scratch.
        var didNotFinish: Double?

        init(scratch: Double = .nan, resize: Double = .nan, remove: Double = .nan, readd: Double = .nan) {
            (self.scratch, self.resize, self.remove, self.readd) = (scratch, resize, remove, readd)
        }

        /// kiwi_layout_bench.py's answer: the four figures, or only `didNotFinish`.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func figure(_ key: CodingKeys) throws -> Double {
                try container.decodeIfPresent(Double.self, forKey: key) ?? .nan
            }
            scratch = try figure(.scratch)
            resize = try figure(.resize)
            remove = try figure(.remove)
            readd = try figure(.readd)
            didNotFinish = try container.decodeIfPresent(Double.self, forKey: .didNotFinish)
        }
    }

    /// Our figures beyond the solver's: the whole view pipeline.
    struct ViewTiming {
        var layout: Double
        var resize: Double
        var constraints: Int
    }

    @MainActor
    func run() async throws {
        #if DEBUG
            print("warning: this is a debug build; run `swift run -c release bench layout` for real figures.")
        #endif
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcage-layout-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        var ours: [String: Timing] = [:]
        var pipeline: [String: ViewTiming] = [:]
        let shapes: [(String, @MainActor (Int, Size) throws -> View)] = [
            ("list", LayoutScreen.list), ("grid", LayoutScreen.grid),
        ]
        var keys: [String] = []
        for count in views {
            for (name, build) in shapes {
                let key = "\(name)-\(count)"
                keys.append(key)
                let (timing, viewTiming, system) = try measure {
                    try build(count, Size(width: 120, height: 40))
                }
                ours[key] = timing
                pipeline[key] = viewTiming
                try JSONEncoder().encode(system).write(to: folder.appendingPathComponent("\(key).json"))
            }
        }
        let theirs = withoutKiwisolver ? [:] : try await kiwisolver(folder: folder, keys: keys)

        print(
            "Layout benchmark: median of \(repetitions); kiwisolver \(await kiwisolverVersion()) (C++ core) on the same systems\n"
        )
        print(
            "screen       constraints  from scratch: ours  kiwisolver  ratio   resize: ours  kiwisolver  ratio   remove a required ==: ours  kiwisolver  ratio   add it back: ours  kiwisolver   views: layout  resize"
        )
        for key in keys {
            guard let mine = ours[key], let whole = pipeline[key] else { continue }
            let kiwi = theirs[key] ?? Timing()
            let kiwiScratch =
                kiwi.didNotFinish.map { "> \(Int($0)) s" } ?? Measurement.milliseconds(kiwi.scratch)
            print(
                [
                    (key, 13), (Measurement.grouped(Double(whole.constraints)), 13),
                    (Measurement.milliseconds(mine.scratch), 20), (kiwiScratch, 12),
                    (Measurement.ratio(mine.scratch / kiwi.scratch), 8), (microseconds(mine.resize), 14),
                    (microseconds(kiwi.resize), 12), (Measurement.ratio(mine.resize / kiwi.resize), 8),
                    (microseconds(mine.remove), 28), (microseconds(kiwi.remove), 12),
                    (Measurement.ratio(mine.remove / kiwi.remove), 8), (microseconds(mine.readd), 19),
                    (microseconds(kiwi.readd), 13), (Measurement.milliseconds(whole.layout), 15),
                    (microseconds(whole.resize), 0),
                ].map { $0.0.padding(toLength: max($0.0.count, $0.1), withPad: " ", startingAt: 0) }.joined())
        }
        for (shape, _) in shapes {
            for (small, large) in zip(views, views.dropFirst()) {
                guard let a = ours["\(shape)-\(small)"], let b = ours["\(shape)-\(large)"] else { continue }
                print(
                    "\(shape): \(large)/\(small) views, from-scratch scaling \(Measurement.ratio(b.scratch / a.scratch)) (linear would be \(Measurement.ratio(Double(large) / Double(small))))"
                )
            }
        }
        for key in keys {
            if let limit = theirs[key]?.didNotFinish {
                print("kiwisolver did not finish \(key) in \(Int(limit)) s")
            }
        }
        print(
            "\n\"views\" is the whole pipeline: layoutIfNeeded() of a fresh tree (walk, constraints, solve, frames), and a resize that sets the root's frame and lays out again."
        )
        print(
            "kiwisolver has one weighted sum, not priority levels: a priority p is the weight 10^(9p/1000) there, which gives the same layouts on these screens."
        )
    }

    @MainActor
    private func measure(_ build: () throws -> View) throws -> (Timing, ViewTiming, ConstraintSystem) {
        let clock = ContinuousClock()
        var layouts: [Double] = []
        var viewResizes: [Double] = []
        var samples: [Timing] = []
        var system: ConstraintSystem?
        for _ in 0..<repetitions {
            let root = try build()
            var start = clock.now
            root.layoutIfNeeded()
            layouts.append(Measurement.seconds(clock.now - start))
            let (constraints, removal) = benchmarkOrder(of: root)
            let exported = ConstraintSystem(root: root, constraints: constraints, removal: removal)
            system = exported

            start = clock.now
            for step in 0..<resizes {
                root.frame = Rect(x: 0, y: 0, width: Double(100 + step % 40), height: 40)
                root.layoutIfNeeded()
            }
            viewResizes.append(Measurement.seconds(clock.now - start) / Double(max(1, resizes)))

            // The solver alone, on the same constraint objects, as kiwisolver is timed.
            // The root's size first, as the engine adds it: a layout knows its screen.
            var timing = Timing()
            let solver = Solver()
            let v = root.layoutVariables
            start = clock.now
            for variable in v.all { try solver.addEditVariable(variable, strength: View.rootFrameStrength) }
            for (variable, value) in zip(v.all, [0, 0, 120, 40.0]) {
                try solver.suggestValue(variable, value)
            }
            for constraint in constraints { try solver.addConstraint(constraint) }
            solver.updateVariables()
            timing.scratch = Measurement.seconds(clock.now - start)
            start = clock.now
            for step in 0..<resizes {
                try solver.suggestValue(v.width, Double(100 + step % 40))
                solver.updateVariables()
            }
            timing.resize = Measurement.seconds(clock.now - start) / Double(max(1, resizes))
            if !constraints.isEmpty {
                let removed = constraints[exported.removal]
                start = clock.now
                try solver.removeConstraint(removed)
                timing.remove = Measurement.seconds(clock.now - start)
                start = clock.now
                try solver.addConstraint(removed)
                solver.updateVariables()
                timing.readd = Measurement.seconds(clock.now - start)
            }
            samples.append(timing)
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        guard let system else { throw ValidationError("--repetitions must be at least 1") }
        return (
            Timing(
                scratch: median(samples.map(\.scratch)), resize: median(samples.map(\.resize)),
                remove: median(samples.map(\.remove)), readd: median(samples.map(\.readd))),
            ViewTiming(
                layout: median(layouts), resize: median(viewResizes), constraints: system.constraints.count),
            system
        )
    }

    /// Runs kiwi_layout_bench.py on the exported systems, awaiting it.
    private func kiwisolver(folder: URL, keys: [String]) async throws -> [String: Timing] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "kiwi_layout_bench.py")
        let arguments =
            [
                script.path, "--resizes", String(resizes), "--repetitions", String(repetitions), "--limit",
                String(kiwisolverLimit),
            ] + keys.map { folder.appendingPathComponent("\($0).json").path }
        let result = try await Subprocess.run(
            .name("python3"), arguments: Arguments(arguments), output: .data(limit: 1 << 24),
            error: .string(limit: 1 << 20))
        guard result.terminationStatus.isSuccess else {
            throw ValidationError(
                "kiwi_layout_bench.py failed; is kiwisolver installed? `python3 -m pip install kiwisolver`\n\(result.standardError)"
            )
        }
        return try JSONDecoder().decode([String: Timing].self, from: result.standardOutput)
    }

    private func kiwisolverVersion() async -> String {
        let result = try? await Subprocess.run(
            .name("python3"), arguments: ["-c", "import kiwisolver; print(kiwisolver.__version__)"],
            output: .string(limit: 1_024))
        return result?.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
    }

    private func microseconds(_ seconds: Double) -> String {
        seconds.isFinite ? "\(Int((seconds * 1_000_000).rounded())) µs" : "—"
    }
}
