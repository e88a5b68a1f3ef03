import HeadlessUI
import HeadlessUITesting
import Layout
import LayoutDSL
import TerminalCore
import TerminalRuntime
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `TerminalApplication.run(firstFrameAfter:)` on a real pseudo-terminal, in this process: the
/// first frame waits for the app's preparation and for the terminal's answer to the graphics
/// query, whichever comes last, and keys typed meanwhile are handled after it.
///
/// Each check waits for the run loop to have taken the event it follows (`onEventTaken`), not
/// for the bytes to be read from the terminal, and the query waits ten minutes for its answer
/// unless a test shortens it: what the tests see does not depend on how busy the machine is.
@Suite(
    "TerminalApplication: the first frame waits for the preparation", .serialized, .timeLimit(.minutes(10)))
@MainActor
struct FirstFrameTests {
    /// A screen that says whether its data was read, and records the frames drawn before each
    /// `x` it was given.
    private final class Screen: ViewController {
        let label = Label("Reading…")
        var framesBeforeEachX: [Int] = []
        var application: TerminalApplication?

        override func viewDidLoad() {
            super.viewDidLoad()
            view.addSubview(label)
            makeLayout {
                _ = try label.ndl.makeConstraints { make in make.top.left.right.equalToSuperview() }
            }
        }

        override var keyCommands: [KeyCommand] {
            [
                KeyCommand("Mark", keys: [KeyPress("x")], help: "Record the frames drawn so far") {
                    [weak self] _ in
                    self?.framesBeforeEachX.append(self?.application?.fullFrameCount ?? -1)
                    return .handled
                }
            ]
        }
    }

    /// A one-shot signal a test sends to the preparation, or the preparation to the test.
    private struct Signal {
        let stream: AsyncStream<Void>
        let continuation: AsyncStream<Void>.Continuation
        init() { (stream, continuation) = AsyncStream.makeStream() }
        func send() { continuation.finish() }
        func wait() async { for await _ in stream {} }
    }

    private typealias LoopEvent = TerminalApplication.LoopEvent

    private let pair: PseudoTerminalPair
    private let session: TerminalSession
    private let screen = Screen()
    private let application: TerminalApplication
    /// The events the run loop has taken, in order.
    private let taken: AsyncStream<LoopEvent>

    init() throws {
        pair = try PseudoTerminalPair.open()
        let window = Window(size: Size(width: 80, height: 24))
        window.rootViewController = screen
        window.makeKeyAndVisible()
        // An xterm: the application asks it about pictures before its first frame.
        session = TerminalSession(input: pair.slave, output: pair.slave)
        application = TerminalApplication(
            window: window, session: session, environment: ["TERM": "xterm-256color"])
        application.kittyGraphicsTimeout = .seconds(600)
        screen.application = application
        let (taken, continuation) = AsyncStream<LoopEvent>.makeStream()
        self.taken = taken
        application.onEventTaken = { continuation.yield($0) }
    }

    private func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(pair.master, $0.baseAddress, $0.count) }
    }

    /// Waits until the run loop has taken an event that `matches`: handled it, or set it aside
    /// for after the first frame.
    private func untilTaken(_ matches: (LoopEvent) -> Bool) async {
        for await event in taken where matches(event) { return }
    }

    /// Whether `event` is the terminal's device attributes, the last reply to the query.
    private static func isDeviceAttributes(_ event: LoopEvent) -> Bool {
        if case .input(.reply(.deviceAttributes)) = event { true } else { false }
    }

    private func closeTerminal() {
        close(pair.master)
        close(pair.slave)
    }

    @Test func theTerminalsAnswerDoesNotDrawAFrameWhileThePreparationRuns() async throws {
        defer { closeTerminal() }
        let started = Signal()
        let release = Signal()
        let running = Task { @MainActor [application, screen] in
            try await application.run(firstFrameAfter: {
                started.send()
                await release.wait()
                screen.label.text = "Read"
            })
        }
        await started.wait()
        // What an xterm answers: no to the graphics query, its device attributes.
        type("\u{1B}_Gi=31;EINVAL:unsupported\u{1B}\\\u{1B}[?62;22c")
        await untilTaken(Self.isDeviceAttributes)
        #expect(
            application.kittyGraphicsAnswer
                == .unsupported("the terminal refused the graphics query: EINVAL:unsupported"))
        type("x")
        await untilTaken { $0 == .input(.key(KeyPress("x"))) }
        #expect(application.fullFrameCount == 0, "no frame before the preparation is done")
        #expect(screen.framesBeforeEachX.isEmpty, "a key typed meanwhile waits for the first frame")

        release.send()
        await untilTaken { $0 == .prepared }
        #expect(application.fullFrameCount == 1)
        #expect(screen.framesBeforeEachX == [1], "the key was handled after the first frame")
        let firstFrame = try #require(application.lastFrame)
        #expect(firstFrame.text().contains("Read") && !firstFrame.text().contains("Reading…"))
        application.quit()
        #expect(try await running.value == .quit)
    }

    @Test func controlCQuitsWhileAPreparationNeverEnds() async throws {
        defer { closeTerminal() }
        let started = Signal()
        let running = Task { @MainActor [application] in
            try await application.run(firstFrameAfter: {
                started.send()
                await Signal().wait()  // ends only when the run cancels it
            })
        }
        await started.wait()
        type("\u{1B}[?62;22c")  // the terminal has answered: only the preparation holds the frame
        type("x\u{03}")
        #expect(try await running.value == .quit)
        #expect(application.fullFrameCount == 0, "no frame was drawn")
        #expect(screen.framesBeforeEachX.isEmpty, "keys before Ctrl-C wait for a first frame that never came")
    }

    @Test func aPreparationDoneBeforeTheAnswerStillWaitsForIt() async throws {
        defer { closeTerminal() }
        let running = Task { @MainActor [application, screen] in
            try await application.run(firstFrameAfter: { screen.label.text = "Read" })
        }
        await untilTaken { $0 == .prepared }
        #expect(application.fullFrameCount == 0, "no frame while the terminal's answer is awaited")
        #expect(application.kittyGraphicsAnswer == nil)
        type("\u{1B}[?62;22c")
        await untilTaken(Self.isDeviceAttributes)
        #expect(application.fullFrameCount == 1)
        #expect(
            application.kittyGraphicsAnswer == .unsupported("the terminal did not answer the graphics query"))
        #expect(application.lastFrame?.text().contains("Read") == true)
        application.quit()
        #expect(try await running.value == .quit)
    }

    @Test func withoutAPreparationTheFirstFrameFollowsTheAnswer() async throws {
        defer { closeTerminal() }
        let running = Task { @MainActor [application] in try await application.run() }
        // Typed once the session is entered, so the terminal is raw and nothing is echoed.
        _ = try await TerminalWait.poll(every: .milliseconds(5)) { @MainActor in session.isActive ? true : nil
        }
        #expect(application.fullFrameCount == 0, "no frame while the terminal's answer is awaited")
        type("\u{1B}[?62;22c")
        await untilTaken(Self.isDeviceAttributes)
        #expect(application.fullFrameCount == 1)
        #expect(
            application.kittyGraphicsAnswer == .unsupported("the terminal did not answer the graphics query"),
            "the answer let the frame out, not the time limit")
        #expect(
            application.lastFrame?.text().contains("Reading…") == true,
            "\(application.lastFrame?.text() ?? "")")
        application.quit()
        #expect(try await running.value == .quit)
    }

    @Test func aTerminalThatAnswersNothingGetsItsFirstFrameOnceTheTimeIsUp() async throws {
        defer { closeTerminal() }
        application.kittyGraphicsTimeout = .milliseconds(20)
        let running = Task { @MainActor [application] in try await application.run() }
        await untilTaken { $0 == .probeTimedOut }
        #expect(application.fullFrameCount == 1)
        #expect(
            application.kittyGraphicsAnswer
                == .unsupported("the terminal answered no query within 0.02 seconds"))
        // A kitty that answers too late changes nothing: the frames stay in half blocks.
        type("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c")
        await untilTaken(Self.isDeviceAttributes)
        #expect(
            application.kittyGraphicsAnswer
                == .unsupported("the terminal answered no query within 0.02 seconds"))
        #expect(!application.capabilities.kittyGraphics)
        #expect(application.fullFrameCount == 1)
        application.quit()
        #expect(try await running.value == .quit)
    }
}
