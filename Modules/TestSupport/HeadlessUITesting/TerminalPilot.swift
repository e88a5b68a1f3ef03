import HeadlessUI
import Layout
import TerminalCore
import TerminalRuntime
import Testing

/// Drives a window as a user at a terminal would, without a terminal: key presses, typing,
/// pastes, raw bytes, clicks, the wheel and resizes go through the same ``TerminalApplication``
/// code as in a real run, and the bytes it writes are replayed on a ``VirtualTerminal``. After
/// each step the pilot records the screen, and checks that the terminal shows exactly the frame
/// that was drawn (so a cell diff that loses a cell fails the test). Textual's Pilot, in Swift
/// Testing.
///
/// ```swift
/// let pilot = TerminalPilot(window: window, size: Size(width: 40, height: 12))
/// pilot.press(.down)
/// pilot.type("buy milk")
/// pilot.press(.enter)
/// pilot.click(x: 3, y: 2)
/// pilot.resize(to: Size(width: 60, height: 16))
/// assertSnapshot(pilot.transcript, named: "todo-keys")   // every step's screen
/// ```
@MainActor
public final class TerminalPilot {
    /// One step and the screen after it.
    public struct Step: Sendable {
        /// What the step did: `press Down`, `type "milk"`, `click 3,2`, `resize 60x16`.
        public var label: String
        /// The screen's text after the step.
        public var screen: String
        /// The bytes written for the step's frame.
        public var bytesWritten: Int
        /// The kitty graphics commands written for the step's frame, as their keys
        /// (`a=t,f=24,…`, `a=p,i=1,…`, `a=d,d=i,…`).
        public var graphicsCommands: [String]
    }

    /// The window the keys and clicks go to, and whose frames the pilot reads back.
    public let window: Window
    /// The application that handles the events and writes the frames.
    public let application: TerminalApplication
    /// The terminal the frames are replayed on.
    public private(set) var terminal: VirtualTerminal
    /// The steps so far, starting with the first frame.
    public private(set) var steps: [Step] = []
    private var decoder = InputDecoder()
    private let sink: ByteSink

    /// A pilot for `window` on a terminal of `size` with `capabilities`; the window is made
    /// key and visible and its first frame drawn.
    ///
    /// With `kittyGraphics`, the virtual terminal speaks kitty's graphics protocol, and the
    /// pilot asks it as ``TerminalApplication/run(firstFrameAfter:)`` asks a real one: it writes a
    /// ``KittyGraphicsProbe``'s query, decodes the terminal's replies with an `InputDecoder`
    /// and sets ``TerminalCapabilities/kittyGraphics`` from the answer.
    public init(
        window: Window, size: Size = Size(width: 80, height: 24),
        capabilities: TerminalCapabilities = TerminalCapabilities(), kittyGraphics: Bool = false
    ) {
        self.window = window
        let sink = ByteSink()
        self.sink = sink
        var terminal = VirtualTerminal(
            width: Int(size.width), height: Int(size.height), kittyGraphics: kittyGraphics)
        var capabilities = capabilities
        var probe = KittyGraphicsProbe()
        terminal.apply(probe.query)
        var replies = InputDecoder()
        for case .reply(let reply) in replies.feed(terminal.takeReplies()) { probe.receive(reply) }
        capabilities.kittyGraphics = probe.timedOut() == .supported
        self.terminal = terminal
        application = TerminalApplication(window: window, capabilities: capabilities) { sink.bytes += $0 }
        window.resize(to: size)
        if !window.isVisible { window.makeKeyAndVisible() }
        application.redrawAll()
        record("start")
    }

    /// The screen's text now.
    public var screen: String { terminal.text }

    /// Every step's label and screen, for a snapshot file.
    public var transcript: String {
        steps.map { "── \($0.label)\n\($0.screen)\n" }.joined(separator: "\n")
    }

    /// Presses each key in turn, one step each.
    public func press(_ keys: KeyPress..., sourceLocation: SourceLocation = #_sourceLocation) {
        for key in keys {
            application.handle(.key(key))
            record("press \(key)", sourceLocation: sourceLocation)
        }
    }

    /// Presses each key in turn, one step each.
    public func press(_ keys: KeyPress.Key..., sourceLocation: SourceLocation = #_sourceLocation) {
        for key in keys {
            application.handle(.key(KeyPress(key)))
            record("press \(KeyPress(key))", sourceLocation: sourceLocation)
        }
    }

    /// Types `text`, a key press per character, as one step.
    public func type(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for character in text { application.handle(.key(KeyPress(character))) }
        record("type \"\(text)\"", sourceLocation: sourceLocation)
    }

    /// Pastes `text` as a terminal in bracketed-paste mode would, as one step.
    public func paste(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        application.handle(.paste(text))
        record("paste \"\(text)\"", sourceLocation: sourceLocation)
    }

    /// Sends `bytes` as the terminal would, through the input decoder, then flushes it as the
    /// Esc timeout would; one step.
    public func send(
        bytes: [UInt8], label: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for event in decoder.feed(bytes) + decoder.flush() { application.handle(event) }
        record(label ?? "bytes \(bytes.count)", sourceLocation: sourceLocation)
    }

    /// A left click at column `x`, row `y` (from 0): a press and a release; one step.
    public func click(x: Int, y: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        application.handle(.mouse(MouseEvent(.press(.left), x: x, y: y)))
        application.handle(.mouse(MouseEvent(.release(.left), x: x, y: y)))
        record("click \(x),\(y)", sourceLocation: sourceLocation)
    }

    /// Turns the wheel `notches` times at column `x`, row `y`: down when positive; one step.
    public func scroll(
        _ notches: Int, x: Int, y: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for _ in 0..<abs(notches) {
            application.handle(.mouse(MouseEvent(notches > 0 ? .scrollDown : .scrollUp, x: x, y: y)))
        }
        record("scroll \(notches) at \(x),\(y)", sourceLocation: sourceLocation)
    }

    /// Resizes the terminal, as SIGWINCH does; one step.
    public func resize(to size: Size, sourceLocation: SourceLocation = #_sourceLocation) {
        terminal.resize(width: Int(size.width), height: Int(size.height))
        application.resize(to: size)
        record("resize \(Int(size.width))x\(Int(size.height))", sourceLocation: sourceLocation)
    }

    /// Draws a frame for changes made outside an event (``TerminalApplication/setNeedsDisplay()``);
    /// one step.
    public func redraw(label: String = "redraw", sourceLocation: SourceLocation = #_sourceLocation) {
        application.renderFrame()
        record(label, sourceLocation: sourceLocation)
    }

    /// Replays what the application wrote, records the step, and checks that the terminal
    /// shows the frame that was drawn.
    private func record(_ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bytes = sink.bytes
        sink.bytes = []
        let commandsBefore = terminal.graphics.commands.count
        terminal.apply(bytes)
        steps.append(
            Step(
                label: label, screen: terminal.text, bytesWritten: bytes.count,
                graphicsCommands: Array(terminal.graphics.commands[commandsBefore...])))
        guard var drawn = application.lastFrame else { return }
        checkPictures(of: drawn, after: label, sourceLocation: sourceLocation)
        // The cells are compared here, the pictures above.
        drawn.images = []
        drawn.cursor = nil
        var shown = terminal.screen
        shown.cursor = nil
        if shown != drawn {
            Issue.record(
                """
                After "\(label)" the terminal does not show the frame that was drawn.
                --- drawn
                \(drawn.text())
                --- shown
                \(shown.text())
                """, sourceLocation: sourceLocation)
        }
    }
}

extension TerminalPilot {
    /// Checks that a terminal that speaks kitty's graphics protocol shows the frame's pictures
    /// where they were drawn, and was sent nothing it finds wrong.
    fileprivate func checkPictures(
        of drawn: Canvas, after label: String, sourceLocation: SourceLocation
    ) {
        let graphics = terminal.graphics
        guard graphics.isEnabled else { return }
        func order(_ a: CellRect, _ b: CellRect) -> Bool {
            (a.y, a.x, a.width, a.height) < (b.y, b.x, b.width, b.height)
        }
        let drawnCells = drawn.images.map(\.visible).sorted(by: order)
        let shownCells = graphics.placements.map(\.cells).sorted(by: order)
        if drawnCells != shownCells {
            Issue.record(
                "After \"\(label)\" the terminal shows pictures at \(shownCells), not at \(drawnCells) as drawn.",
                sourceLocation: sourceLocation)
        }
        if !graphics.errors.isEmpty {
            Issue.record(
                "After \"\(label)\" the terminal found graphics errors: \(graphics.errors)",
                sourceLocation: sourceLocation)
        }
    }
}

/// Collects what the application writes.
@MainActor
private final class ByteSink {
    var bytes: [UInt8] = []
}
