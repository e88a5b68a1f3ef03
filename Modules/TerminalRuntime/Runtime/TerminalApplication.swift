import Foundation
import HeadlessUI
import Layout
import TerminalCore

/// Runs a ``Window`` full-screen in a terminal: the terminal session, the input, the signals,
/// the resizes and the frames, as `UIApplication` runs an app's event loop.
///
/// ```swift
/// let window = Window(size: Size(width: 80, height: 24))
/// window.rootViewController = CounterViewController()
/// window.makeKeyAndVisible()
/// let application = TerminalApplication(window: window)
/// let reason = try await application.run()     // until quit(), Ctrl-C or a signal
/// exit(reason.exitStatus)
/// ```
///
/// What it does for every app:
///
/// - **Session.** Raw mode and the alternate screen (``TerminalSession``) are entered when
///   ``run(firstFrameAfter:)`` starts and left when it ends, however it ends: ``quit()``,
///   Ctrl-C, the end of input, SIGINT, SIGTERM or SIGHUP (then ``ExitReason/signal(_:)``),
///   `exit()` (an `atexit` handler), or a crash (the terminal is given back before the crash
///   report). Ctrl-Z or SIGTSTP leaves the session and stops the process; SIGCONT enters it
///   again and redraws, once the process is in the terminal's foreground: started or continued
///   as a background job, it is stopped (SIGTTOU) until `fg`.
/// - **Signals** are caught before the session is entered and arrive as events
///   (``SignalEvents``): the handler only writes to a pipe, and the work happens in the run loop.
/// - **Input.** Keys, pastes and mouse reports are decoded (`InputDecoder`) on a thread of
///   their own and delivered to the window on the main actor (``Window/send(_:)``). What no
///   view or command takes: Ctrl-C quits (``quitsOnControlC``), Ctrl-L redraws the whole
///   screen, Ctrl-Z suspends.
/// - **Resize.** SIGWINCH resizes the window to the terminal and redraws it in full, before
///   anything else is read.
/// - **Frames.** After each event, the window is laid out and drawn, and only the cells that
///   changed are written (`FrameWriter`); ``setNeedsDisplay()`` asks for a frame when work
///   done elsewhere changed what is shown.
/// - **Pictures.** Before the first frame it asks the terminal whether it speaks kitty's
///   graphics protocol (``KittyGraphicsProbe``, unless ``detectsKittyGraphics`` is off); if it
///   does, ``ImageView``s show their pictures through it, else as half blocks. Keys typed while
///   it waits for the answer are handled after the first frame; a terminal that answers nothing
///   delays that frame by ``kittyGraphicsTimeout`` at most.
/// - **Launch.** The first frame can also wait for the app's own start-up work
///   (``run(firstFrameAfter:)``), which runs meanwhile, so that it shows what was read rather
///   than an empty screen that fills a moment later.
///
/// The event handling is public (``handle(_:)``, ``resize(to:)``, ``renderFrame()``), so that a
/// test driver can run an app without a terminal, through the same code (see
/// `HeadlessUITesting`'s `TerminalPilot`).
@MainActor
public final class TerminalApplication {
    /// Why ``run(firstFrameAfter:)`` returned.
    public enum ExitReason: Sendable, Hashable {
        /// ``quit()`` was called, or Ctrl-C pressed.
        case quit
        /// The input ended (the terminal closed it).
        case endOfInput
        /// A signal that ends a program arrived: SIGINT, SIGTERM or SIGHUP.
        case signal(Int32)

        /// The status a process exits with: 0, or 128 plus the signal's number, as shells
        /// report a death by signal.
        public var exitStatus: Int32 {
            switch self {
            case .quit, .endOfInput: 0
            case .signal(let number): 128 + number
            }
        }
    }

    /// The window drawn full-screen: input goes to it, and each frame is its render.
    public let window: Window
    /// Whether Ctrl-C quits when no view or command takes it. On by default.
    public var quitsOnControlC = true
    /// Whether ``run(firstFrameAfter:)`` asks the terminal if it speaks kitty's graphics
    /// protocol, to show pictures through it; when off, pictures are half blocks. On by default,
    /// unless the environment names a terminal that must not be asked
    /// (``KittyGraphicsProbe/mayAsk(environment:)``: tmux, GNU screen, the Linux console).
    public var detectsKittyGraphics = true
    /// How long ``run(firstFrameAfter:)`` waits for a terminal that answers nothing to the
    /// graphics query before it takes the silence as a no and draws the first frame;
    /// ``KittyGraphicsProbe/defaultTimeout`` (250 ms) by default. Longer suits a terminal at the
    /// end of a slow link; a test sets a long one to keep the query unanswered while it looks,
    /// or a short one to see it time out.
    public var kittyGraphicsTimeout = KittyGraphicsProbe.defaultTimeout
    /// The terminal's answer to the graphics query, once ``run(firstFrameAfter:)`` has it; when
    /// the terminal was not asked, why pictures are half blocks
    /// (``KittyGraphicsProbe/reasonNotToAsk(environment:)``, or ``detectsKittyGraphics`` off).
    public internal(set) var kittyGraphicsAnswer: KittyGraphicsProbe.Answer?
    /// Why the environment's terminal must not be asked, when it must not.
    private(set) var reasonNotToAsk: String?
    /// Hears the reason of a key command that failed (``CommandResult/failed(_:)``), for a
    /// status line.
    public var onCommandFailure: (@MainActor (String) -> Void)?
    /// The last frame drawn.
    public private(set) var lastFrame: Canvas?
    /// The bytes written for the last frame, for the tests of what reaches the terminal.
    package private(set) var lastFrameBytes: [UInt8] = []
    /// How many frames were written in full (the first, after resizes, resumes and Ctrl-L), for
    /// the tests that a redraw costs one full frame and no more.
    package private(set) var fullFrameCount = 0
    /// Hears each event ``run(firstFrameAfter:)`` has taken, once it is done with it: handled,
    /// or set aside until the first frame. For the tests that wait for the run loop itself,
    /// rather than for the bytes they typed to be read.
    package var onEventTaken: (@MainActor (LoopEvent) -> Void)?

    // What the run loop (TerminalApplication+RunLoop.swift) shares with the event handling.
    var writer: FrameWriter
    private let output: ([UInt8]) -> Void
    let session: TerminalSession?
    var events: AsyncStream<LoopEvent>.Continuation?
    var redrawRequested = false
    /// Whether ``run(firstFrameAfter:)`` has drawn its first frame; until then nothing else draws.
    var isFirstFrameDrawn = false
    /// Why the application is ending, once ``quit()`` or a signal asked it to.
    public internal(set) var exitReason: ExitReason?

    /// An application on the process's terminal (standard input and output), with the
    /// capabilities its environment gives.
    public convenience init(
        window: Window, session: TerminalSession = TerminalSession(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.init(
            window: window, capabilities: TerminalCapabilities(environment: environment), session: session,
            output: { session.write($0) })
        reasonNotToAsk = KittyGraphicsProbe.reasonNotToAsk(environment: environment)
        detectsKittyGraphics = reasonNotToAsk == nil
    }

    /// An application that writes its frames to `output`, for test drivers and benchmarks; it
    /// has no terminal session, so only ``handle(_:)``, ``resize(to:)`` and the frame methods
    /// apply.
    public convenience init(
        window: Window, capabilities: TerminalCapabilities, output: @escaping ([UInt8]) -> Void
    ) {
        self.init(window: window, capabilities: capabilities, session: nil, output: output)
    }

    private init(
        window: Window, capabilities: TerminalCapabilities, session: TerminalSession?,
        output: @escaping ([UInt8]) -> Void
    ) {
        self.window = window
        window.capabilities = capabilities
        writer = FrameWriter(capabilities: capabilities)
        self.session = session
        self.output = output
        window.onNeedsDisplay = { [weak self] in self?.setNeedsDisplay() }
    }

    /// What the terminal shows. Setting it redraws the whole screen with the new capabilities.
    public var capabilities: TerminalCapabilities {
        get { writer.capabilities }
        set {
            guard newValue != writer.capabilities else { return }
            writer.capabilities = newValue
            window.capabilities = newValue
            writer.invalidate()
        }
    }

    // MARK: Events

    /// Delivers `event` to the window, runs the application's keys for what it did not take,
    /// then draws the frame.
    public func handle(_ event: InputEvent) {
        // A reply to a query that is not pending any more (one that came after the timeout).
        if case .reply = event { return }
        let result = window.send(event)
        switch result {
        case .handled: break
        case .failed(let reason): onCommandFailure?(reason)
        case .notHandled:
            if case .key(let press) = event { handleApplicationKey(press) }
        }
        guard exitReason == nil else { return }
        renderFrame()
    }

    private func handleApplicationKey(_ press: KeyPress) {
        if quitsOn(press) { return quit() }
        guard press.modifiers == .control else { return }
        switch press.key {
        case .character("l"): writer.invalidate()
        case .character("z"): suspend()
        default: break
        }
    }

    /// Whether `press` is Ctrl-C and Ctrl-C quits: a key no view or command took, or any key
    /// typed while the first frame waits.
    func quitsOn(_ press: KeyPress) -> Bool {
        quitsOnControlC && press.modifiers == .control && press.key == .character("c")
    }

    /// Resizes the window to `size` and draws it in full.
    public func resize(to size: Size) {
        window.resize(to: size)
        writer.invalidate()
        renderFrame()
    }

    /// Asks for a frame: drawn by the run loop as soon as it has handled the events before
    /// this call. For changes made outside an event (a download finished, a timer fired).
    /// Without a terminal session (a test driver, a benchmark) the frame is drawn at once; with
    /// one, only while ``run(firstFrameAfter:)`` runs: before and after, the screen is the shell's.
    public func setNeedsDisplay() {
        guard let events else {
            if session == nil { renderFrame() }
            return
        }
        guard !redrawRequested else { return }
        redrawRequested = true
        events.yield(.redraw)
    }

    /// Draws the window and writes the cells that changed since the last frame.
    public func renderFrame() {
        let canvas = window.render()
        let bytes = writer.frame(canvas)
        if writer.lastFrameWasFull { fullFrameCount += 1 }
        lastFrame = canvas
        lastFrameBytes = bytes
        if !bytes.isEmpty { output(bytes) }
    }

    /// Draws the whole screen again, as Ctrl-L does.
    public func redrawAll() {
        writer.invalidate()
        renderFrame()
    }

    /// Ends ``run(firstFrameAfter:)`` after the event being handled; the session is left.
    public func quit() {
        exitReason = exitReason ?? .quit
        events?.yield(.redraw)
    }
}
