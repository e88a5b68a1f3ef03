import Foundation
import HeadlessUI
import Images
import Layout
import TerminalCore
import TerminalRuntime

/// `bench ui`'s runtime part: what the terminal runtime writes and how long a key takes to
/// reach the screen, on the same typical screen as the layout figures.
@MainActor
struct UIRuntimeBenchmark {
    let repetitions: Int
    let keyPresses: Int

    func run() throws {
        print("\nRuntime: bytes written per frame (cell diff vs a full redraw of the same frame), 80x24\n")
        printBytes()
        print("\nRuntime: key press to finished frame (decode-free: the event, layout, render, diff)\n")
        printKeyLatency()
        print("\nFirst frames (build, layout, render, full write)\n")
        printFirstFrames()
        print("\nImage: decode a 640x480 JPEG and draw it as 80x24 half blocks\n")
        try printImage()
    }

    // MARK: Bytes per frame

    private func printBytes() {
        let screen = BenchScreen(todos: (0..<10_000).map { "Todo number \($0) — 할 일 \($0)" })
        var written = 0
        let application = TerminalApplication(
            window: screen.window, capabilities: TerminalCapabilities(colorDepth: .ansi256)
        ) { written += $0.count }
        application.redrawAll()
        func measure(_ change: () -> Void) -> (diff: Int, full: Int) {
            change()
            written = 0
            application.renderFrame()
            let diff = written
            written = 0
            application.redrawAll()
            return (diff, written)
        }
        let cell = measure { screen.list.status.text = "1 lefT" }
        let scroll = measure { screen.list.table.contentOffset += 1 }
        let tabs = screen.window.rootViewController as? TabBarController
        let tab = measure { tabs?.selectedIndex = 1 }
        let tabBack = measure { tabs?.selectedIndex = 0 }
        print(
            "change".padding(toLength: 34, withPad: " ", startingAt: 0) + "diff".leftPadded(10)
                + "full".leftPadded(10) + "ratio".leftPadded(10) + "goal".leftPadded(16))
        for (name, figures, goal) in [
            ("one cell changes", cell, cell.diff < 64 ? "< 64 B: yes" : "< 64 B: no"),
            ("the list scrolls one row", scroll, "—"), ("switch to the other tab", tab, "—"),
            ("switch back", tabBack, "—"),
        ] {
            print(
                name.padding(toLength: 34, withPad: " ", startingAt: 0) + "\(figures.diff) B".leftPadded(10)
                    + "\(figures.full) B".leftPadded(10)
                    + Measurement.ratio(Double(figures.diff) / Double(max(1, figures.full))).leftPadded(10)
                    + goal.leftPadded(16))
        }
    }

    // MARK: Key latency

    private func printKeyLatency() {
        let screen = BenchScreen(todos: (0..<10_000).map { "Todo number \($0) — 할 일 \($0)" })
        var sink = 0
        let application = TerminalApplication(
            window: screen.window, capabilities: TerminalCapabilities(colorDepth: .ansi256)
        ) { sink &+= $0.count }
        application.redrawAll()
        screen.window.focus(screen.list.table)
        var samples: [Double] = []
        samples.reserveCapacity(keyPresses)
        let clock = ContinuousClock()
        for index in 0..<keyPresses {
            // Down, Down, …, then Up back, so that the selection moves and the list scrolls.
            let key = (index / 500).isMultiple(of: 2) ? KeyPress(.down) : KeyPress(.up)
            let start = clock.now
            application.handle(.key(key))
            samples.append(Measurement.seconds(clock.now - start))
        }
        samples.sort()
        func percentile(_ p: Double) -> Double {
            samples[min(samples.count - 1, Int(Double(samples.count) * p))]
        }
        let median = percentile(0.5)
        print(
            "presses".padding(toLength: 12, withPad: " ", startingAt: 0) + "p50".leftPadded(12)
                + "p99".leftPadded(12) + "max".leftPadded(12) + "p50 < 2 ms".leftPadded(12))
        print(
            "\(keyPresses)".padding(toLength: 12, withPad: " ", startingAt: 0)
                + Measurement.milliseconds(median).leftPadded(12)
                + Measurement.milliseconds(percentile(0.99)).leftPadded(12)
                + Measurement.milliseconds(samples.last ?? 0).leftPadded(12)
                + (median < 0.002 ? "yes" : "no").leftPadded(12))
        if sink == 1 { print(sink) }
    }

    // MARK: First frames

    private func printFirstFrames() {
        let todos = (0..<10_000).map { "Todo number \($0) — 할 일 \($0)" }
        var sink = 0
        func firstFrame(_ make: () -> Window) -> Double {
            Measurement.median(repetitions: repetitions) {
                let window = make()
                let application = TerminalApplication(
                    window: window, capabilities: TerminalCapabilities(colorDepth: .ansi256)
                ) { sink &+= $0.count }
                application.redrawAll()
            }
        }
        let typical = firstFrame { BenchScreen(todos: Array(todos.prefix(20))).window }
        let large = firstFrame { BenchScreen(todos: todos).window }
        print(
            "screen".padding(toLength: 40, withPad: " ", startingAt: 0) + "first frame".leftPadded(14)
                + "< 2 ms".leftPadded(10))
        print(
            "typical screen (20 todos)".padding(toLength: 40, withPad: " ", startingAt: 0)
                + Measurement.milliseconds(typical).leftPadded(14)
                + (typical < 0.002 ? "yes" : "no").leftPadded(10))
        print(
            "10,000-row table".padding(toLength: 40, withPad: " ", startingAt: 0)
                + Measurement.milliseconds(large).leftPadded(14) + "—".leftPadded(10))
        printFirstFramePhases(todos: Array(todos.prefix(20)))
        if sink == 1 { print(sink) }
    }

    /// The typical screen's first frame cut into its phases, each the median of its own
    /// samples: making the controllers and views (their `viewDidLoad` and constraints), the
    /// first layout (the solver from scratch), drawing the laid-out tree, and the full write.
    private func printFirstFramePhases(todos: [String]) {
        let clock = ContinuousClock()
        var phases = [[Double]](repeating: [], count: 4)
        var sink = 0
        for _ in 0..<repetitions {
            var start = clock.now
            func lap(_ phase: Int) {
                let now = clock.now
                phases[phase].append(Measurement.seconds(now - start))
                start = now
            }
            let screen = BenchScreen(todos: todos)
            lap(0)
            screen.window.layoutIfNeeded()
            lap(1)
            let canvas = screen.window.render()
            lap(2)
            var writer = FrameWriter(capabilities: TerminalCapabilities(colorDepth: .ansi256))
            sink &+= writer.frame(canvas).count
            lap(3)
        }
        let names = ["make views and controllers", "first layout", "draw", "write in full"]
        for (name, samples) in zip(names, phases) {
            print(
                "  \(name)".padding(toLength: 40, withPad: " ", startingAt: 0)
                    + Measurement.milliseconds(samples.sorted()[samples.count / 2]).leftPadded(14))
        }
        if sink == 1 { print(sink) }
    }

    // MARK: Image

    private func printImage() throws {
        let path = URL(filePath: #filePath).deletingLastPathComponent()
            .appending(path: "../../Tests/ImagesTests/Images/sunset-640x480.jpg").standardized.path
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let window = Window(size: Size(width: 80, height: 24))
        let view = ImageView()
        window.rootViewController = ViewController()
        window.rootViewController?.view.addSubview(view)
        view.frame = Rect(x: 0, y: 0, width: 80, height: 24)
        window.makeKeyAndVisible()
        var sink = 0
        let application = TerminalApplication(window: window, capabilities: TerminalCapabilities()) {
            sink &+= $0.count
        }
        func decodeAndDraw(minimumSize: (width: Int, height: Int)?) throws -> Double {
            try Measurement.median(repetitions: max(repetitions, 5)) {
                view.bitmap = try Bitmap(data: data, minimumSize: minimumSize)
                application.redrawAll()
            }
        }
        let full = try decodeAndDraw(minimumSize: nil)
        let scaled = try decodeAndDraw(minimumSize: (80, 48))
        print(
            "decode".padding(toLength: 40, withPad: " ", startingAt: 0) + "decode+draw".leftPadded(14)
                + "< 20 ms".leftPadded(10))
        print(
            "full size, then area-averaged".padding(toLength: 40, withPad: " ", startingAt: 0)
                + Measurement.milliseconds(full).leftPadded(14) + (full < 0.02 ? "yes" : "no").leftPadded(10))
        print(
            "DCT-scaled by libjpeg to >= 80x48".padding(toLength: 40, withPad: " ", startingAt: 0)
                + Measurement.milliseconds(scaled).leftPadded(14)
                + (scaled < 0.02 ? "yes" : "no").leftPadded(10))
        print(
            "ratio scaled/full: \(Measurement.ratio(scaled / full)); bytes of the last frame written: \(application.lastFrameBytes.count)"
        )
        if sink == 1 { print(sink) }
    }
}
