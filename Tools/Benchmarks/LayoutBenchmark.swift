import ArgumentParser
import Foundation
import Layout

/// `bench layout`: screens of 1,000 and 10,000 views solved from scratch and resized, by our
/// solver and by kiwisolver on the very same constraint system, in one run.
struct LayoutBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract:
            "Lay out 1,000- and 10,000-view list and grid screens from scratch and resize them; against kiwisolver."
    )

    @Option(help: "Resizes of each screen.")
    var resizes = 1_000

    @Option(help: "Repetitions; the median is reported.")
    var repetitions = 3

    @Flag(help: "Skip kiwisolver (quick runs while working; the ratios need it).")
    var withoutKiwisolver = false

    @Option(
        parsing: .upToNextOption, help: "View counts; the first is the small screen, the last the large one.")
    var views: [Int] = [1_000, 10_000]

    /// Seconds, per shape and size.
    struct Timing: Codable {
        /// Adding every constraint to an empty solver, plus updateVariables.
        var scratch: Double
        /// One suggestValue of the root's width, plus updateVariables.
        var resize: Double
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
        let theirs = withoutKiwisolver ? [:] : try kiwisolver(folder: folder, keys: keys)

        print(
            "Layout benchmark: median of \(repetitions); kiwisolver \(kiwisolverVersion()) (C++ core) on the same systems\n"
        )
        print(
            "screen       constraints  from scratch: ours  kiwisolver  ratio   resize: ours  kiwisolver  ratio   views: layout  resize"
        )
        for key in keys {
            guard let mine = ours[key], let whole = pipeline[key] else { continue }
            let kiwi = theirs[key] ?? Timing(scratch: .nan, resize: .nan)
            print(
                [
                    (key, 13), (Measurement.grouped(Double(whole.constraints)), 13),
                    (Measurement.milliseconds(mine.scratch), 20),
                    (Measurement.milliseconds(kiwi.scratch), 12),
                    (Measurement.ratio(mine.scratch / kiwi.scratch), 8), (microseconds(mine.resize), 14),
                    (microseconds(kiwi.resize), 12), (Measurement.ratio(mine.resize / kiwi.resize), 8),
                    (Measurement.milliseconds(whole.layout), 15), (microseconds(whole.resize), 0),
                ].map { $0.0.padding(toLength: max($0.0.count, $0.1), withPad: " ", startingAt: 0) }.joined())
        }
        if let first = views.first, let last = views.last, first != last {
            for (shape, _) in shapes {
                guard let small = ours["\(shape)-\(first)"], let large = ours["\(shape)-\(last)"] else {
                    continue
                }
                print(
                    "\(shape): \(last)/\(first) views, from-scratch scaling \(Measurement.ratio(large.scratch / small.scratch)) (linear would be \(last / first)×)"
                )
            }
        }
        print(
            "\n\"views\" is the whole pipeline: layoutIfNeeded() of a fresh tree (walk, constraints, solve, frames), and a resize that sets the root's frame and lays out again."
        )
    }

    @MainActor
    private func measure(_ build: () throws -> View) throws -> (Timing, ViewTiming, ConstraintSystem) {
        let clock = ContinuousClock()
        var layouts: [Double] = []
        var viewResizes: [Double] = []
        var scratch: [Double] = []
        var solverResizes: [Double] = []
        var system: ConstraintSystem?
        for _ in 0..<repetitions {
            let root = try build()
            var start = clock.now
            root.layoutIfNeeded()
            layouts.append(Measurement.seconds(clock.now - start))
            let constraints = root.solverConstraints
            system = ConstraintSystem(root: root, constraints: constraints)

            start = clock.now
            for step in 0..<resizes {
                root.frame = Rect(x: 0, y: 0, width: Double(100 + step % 40), height: 40)
                root.layoutIfNeeded()
            }
            viewResizes.append(Measurement.seconds(clock.now - start) / Double(max(1, resizes)))

            // The solver alone, on the same constraint objects, as kiwisolver is timed.
            // The root's size first, as the engine adds it: a layout knows its screen.
            let solver = Solver()
            let v = root.layoutVariables
            start = clock.now
            for variable in v.all { try solver.addEditVariable(variable, strength: View.rootFrameStrength) }
            for (variable, value) in zip(v.all, [0, 0, 120, 40.0]) {
                try solver.suggestValue(variable, value)
            }
            for constraint in constraints { try solver.addConstraint(constraint) }
            solver.updateVariables()
            scratch.append(Measurement.seconds(clock.now - start))
            start = clock.now
            for step in 0..<resizes {
                try solver.suggestValue(v.width, Double(100 + step % 40))
                solver.updateVariables()
            }
            solverResizes.append(Measurement.seconds(clock.now - start) / Double(max(1, resizes)))
        }
        func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }
        guard let system else { throw ValidationError("--repetitions must be at least 1") }
        return (
            Timing(scratch: median(scratch), resize: median(solverResizes)),
            ViewTiming(
                layout: median(layouts), resize: median(viewResizes), constraints: system.constraints.count),
            system
        )
    }

    private func kiwisolver(folder: URL, keys: [String]) throws -> [String: Timing] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "kiwi_layout_bench.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", script.path, "--resizes", String(resizes), "--repetitions", String(repetitions)]
            + keys.map { folder.appendingPathComponent("\($0).json").path }
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
        seconds.isFinite ? "\(Int((seconds * 1_000_000).rounded())) µs" : "—"
    }
}

/// A constraint system as `kiwi_layout_bench.py` reads it: variables by index, each constraint
/// as `[relation, strength, constant, [variable, coefficient, …]]`, and the root's four edit
/// variables with the values suggested for them.
struct ConstraintSystem: Encodable {
    var variables = 0
    var constraints: [[Entry]] = []
    var edits: [Int] = []
    var editValues: [Double] = [0, 0, 120, 40]
    var editStrength = kiwiStrength(View.rootFrameStrength)

    /// kiwi has one weighted sum, not levels: a priority's level p becomes the weight
    /// 10^(9p/1000) (1,000 for the root's frame becomes 10⁹), far enough apart on these screens
    /// that the weighted optimum is the one the levels give.
    static func kiwiStrength(_ strength: Strength) -> Double {
        if strength.isRequired { return Strength.required.value }
        if strength.level == 0 { return strength.value }
        return pow(10, strength.level / 1_000 * 9) * strength.value
    }

    enum Entry: Encodable {
        case text(String)
        case number(Double)
        case terms([Double])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .number(let number): try container.encode(number)
            case .terms(let terms): try container.encode(terms)
            }
        }
    }

    @MainActor
    init(root: View, constraints solverConstraints: [Constraint]) {
        var index: [ObjectIdentifier: Int] = [:]
        func number(_ variable: Variable) -> Int {
            if let known = index[ObjectIdentifier(variable)] { return known }
            index[ObjectIdentifier(variable)] = variables
            variables += 1
            return variables - 1
        }
        edits = root.layoutVariables.all.map(number)
        for constraint in solverConstraints {
            let terms = constraint.expression.terms.flatMap { [Double(number($0.variable)), $0.coefficient] }
            constraints.append([
                .text("\(constraint.relation)"), .number(Self.kiwiStrength(constraint.strength)),
                .number(constraint.expression.constant), .terms(terms),
            ])
        }
    }
}
