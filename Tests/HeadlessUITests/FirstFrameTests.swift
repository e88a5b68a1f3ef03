import HeadlessUI
import HeadlessUITesting
import Layout
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `TerminalApplication.run(firstFrameAfter:)` on a real pseudo-terminal, in this process: the
/// first frame waits for the app's preparation and for the terminal's answer to the graphics
/// query, whichever comes last, and keys typed meanwhile are handled after it.
@Suite("TerminalApplication: the first frame waits for the preparation", .serialized)
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

    private let pair: PseudoTerminalPair
    private let session: TerminalSession
    private let screen = Screen()
    private let application: TerminalApplication

    init() throws {
        pair = try PseudoTerminalPair.open()
        let window = Window(size: Size(width: 80, height: 24))
        window.rootViewController = screen
        window.makeKeyAndVisible()
        // An xterm: the application asks it about pictures before its first frame.
        session = TerminalSession(input: pair.slave, output: pair.slave)
        application = TerminalApplication(
            window: window, session: session, environment: ["TERM": "xterm-256color"])
        screen.application = application
    }

    private func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(pair.master, $0.baseAddress, $0.count) }
    }

    /// Whether the application's input thread has read everything typed so far.
    private var inputIsRead: Bool {
        var unread: Int32 = 0
        return ioctl(pair.slave, UInt(FIONREAD), &unread) == 0 && unread == 0
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
        let answered = try await TerminalWait.poll(every: .milliseconds(5)) { @MainActor in
            application.kittyGraphicsAnswer
        }
        #expect(answered != nil, "the terminal's answer was taken")
        type("x")
        #expect(
            try await TerminalWait.poll(every: .milliseconds(5)) { @MainActor in inputIsRead ? true : nil }
                == true)
        #expect(application.fullFrameCount == 0, "no frame before the preparation is done")
        #expect(screen.framesBeforeEachX.isEmpty, "a key typed meanwhile waits for the first frame")

        release.send()
        let drawn = try await TerminalWait.poll(every: .milliseconds(5)) { @MainActor in
            screen.framesBeforeEachX.isEmpty ? nil : application.fullFrameCount
        }
        #expect(drawn == 1)
        #expect(screen.framesBeforeEachX == [1], "the key was handled after the first frame")
        let firstFrame = try #require(application.lastFrame)
        #expect(firstFrame.text().contains("Read") && !firstFrame.text().contains("Reading…"))
        application.quit()
        #expect(try await running.value == .quit)
    }

    @Test(.timeLimit(.minutes(1))) func controlCQuitsWhileAPreparationNeverEnds() async throws {
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
        let prepared = Signal()
        let running = Task { @MainActor [application, screen] in
            try await application.run(firstFrameAfter: {
                screen.label.text = "Read"
                prepared.send()
            })
        }
        await prepared.wait()
        // On a busy machine the query can time out (KittyGraphicsProbe.timeout) before this
        // line runs, and then the frame rightly comes without the answer.
        #expect(
            application.fullFrameCount == 0 || application.kittyGraphicsAnswer != nil,
            "no frame while the terminal's answer is awaited")
        type("\u{1B}[?62;22c")
        let drawn = try await TerminalWait.poll(every: .milliseconds(5)) { @MainActor in
            application.fullFrameCount > 0 ? application.fullFrameCount : nil
        }
        #expect(drawn == 1)
        #expect(application.kittyGraphicsAnswer != nil)
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
        type("\u{1B}[?62;22c")
        let drawn = try await TerminalWait.poll(every: .milliseconds(5)) { @MainActor in
            application.fullFrameCount > 0 ? application.fullFrameCount : nil
        }
        #expect(drawn == 1)
        #expect(
            application.lastFrame?.text().contains("Reading…") == true,
            "\(application.lastFrame?.text() ?? "")")
        application.quit()
        #expect(try await running.value == .quit)
    }
}
