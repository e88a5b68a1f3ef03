import Foundation
import HeadlessUI
import Layout
import TerminalCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    public private(set) var kittyGraphicsAnswer: KittyGraphicsProbe.Answer?
    /// Why the environment's terminal must not be asked, when it must not.
    private var reasonNotToAsk: String?
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

    private var writer: FrameWriter
    private let output: ([UInt8]) -> Void
    private let session: TerminalSession?
    private var events: AsyncStream<LoopEvent>.Continuation?
    private var redrawRequested = false
    /// Whether ``run(firstFrameAfter:)`` has drawn its first frame; until then nothing else draws.
    private var isFirstFrameDrawn = false
    /// Why the application is ending, once ``quit()`` or a signal asked it to.
    public private(set) var exitReason: ExitReason?

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
    private func quitsOn(_ press: KeyPress) -> Bool {
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

    // MARK: The run loop

    /// What the run loop takes, in the order it arrives.
    package enum LoopEvent: Sendable, Hashable {
        case input(InputEvent)
        case inputEnded
        case signal(Int32)
        case redraw
        case probeTimedOut
        /// The work the first frame waits for is done.
        case prepared
    }

    /// Enters the terminal session, draws the window at the terminal's size, and handles
    /// input, signals and redraw requests until ``quit()``, Ctrl-C, the end of input, or
    /// SIGINT, SIGTERM or SIGHUP. The session is left before it returns.
    ///
    /// - Parameter preparation: Work the first frame waits for, such as reading what it shows
    ///   from disk. It starts once the session is entered and runs while the terminal answers
    ///   the graphics query, so the first frame waits for the slower of the two, not for their
    ///   sum. Keys typed meanwhile are handled after the first frame, except Ctrl-C (when
    ///   ``quitsOnControlC``), which quits at once, so that a preparation that never ends cannot
    ///   keep the user in a blank screen. A resize or a stop and resume (SIGTSTP, SIGCONT)
    ///   meanwhile only refits the window; SIGINT, SIGTERM and SIGHUP end the run at once. The
    ///   preparation is cancelled if the run ends first.
    /// - Throws: ``TerminalError`` when the terminal cannot be taken over (standard input is
    ///   not a terminal, say) or signals cannot be caught; nothing was changed then.
    public func run(firstFrameAfter preparation: (@MainActor () async -> Void)? = nil)
        async throws(TerminalError) -> ExitReason
    {
        guard let session else { throw .notATerminal }
        let (stream, continuation) = AsyncStream<LoopEvent>.makeStream(bufferingPolicy: .unbounded)
        // The signal sources are set up before the session is entered, so that a signal
        // arriving while it is entered finds them.
        let signals = try SignalEvents.stream([SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT])
        let signalTask = Task.detached {
            for await number in signals { continuation.yield(.signal(number)) }
        }
        do {
            try session.enter()
        } catch {
            // Nothing was changed; the signals go back to what they were before, before this
            // returns: the task's stream puts them back when it ends.
            signalTask.cancel()
            await signalTask.value
            continuation.finish()
            throw error
        }
        defer {
            // The terminal keeps pictures' pixels until they are freed.
            session.write(writer.releaseImages())
            session.leave()
        }
        let input = TerminalInput(fileDescriptor: session.inputDescriptor).events()
        let inputTask = Task.detached {
            for await event in input { continuation.yield(.input(event)) }
            continuation.yield(.inputEnded)
        }
        let probe = detectsKittyGraphics ? KittyGraphicsProbe(timeout: kittyGraphicsTimeout) : nil
        let timeoutTask = probe.map { probe in
            session.write(probe.query)
            return Task {
                try await Task.sleep(for: probe.timeout)
                continuation.yield(.probeTimedOut)
            }
        }
        let preparationTask = preparation.map { preparation in
            Task { @MainActor in
                await preparation()
                continuation.yield(.prepared)
            }
        }
        defer {
            inputTask.cancel()
            signalTask.cancel()
            timeoutTask?.cancel()
            preparationTask?.cancel()
            events = nil
            continuation.finish()
        }
        events = continuation
        exitReason = nil
        fitToTerminal()
        if probe == nil {
            kittyGraphicsAnswer = .unsupported(
                "not asked: \(reasonNotToAsk ?? "detectsKittyGraphics is off")")
        }
        // Until the terminal has answered the graphics query and the preparation is done, what
        // the user does waits, and so do frames: the first one shows the app as it is then.
        var gate = FirstFrameGate(probe: probe, isPreparing: preparation != nil)
        isFirstFrameDrawn = false
        func drawFirstFrameWhenReady() {
            guard let waiting = gate.open(ending: exitReason != nil) else { return }
            isFirstFrameDrawn = true
            redrawAll()
            for input in waiting where exitReason == nil { handle(input) }
        }
        drawFirstFrameWhenReady()
        for await event in stream {
            if isFirstFrameDrawn {
                handle(loopEvent: event)
            } else {
                let quits = if case .input(.key(let press)) = event { quitsOn(press) } else { false }
                switch gate.take(event, quits: quits) {
                case .answered(let answer):
                    timeoutTask?.cancel()
                    kittyGraphicsAnswer = answer
                    capabilities.kittyGraphics = answer == .supported
                case .quit: quit()
                case .refit: fitToTerminal()  // drawn at this size when it is ready
                case .forgetRedraw: redrawRequested = false  // the first frame draws it all
                case .handle: handle(loopEvent: event)
                case .none: break
                }
                drawFirstFrameWhenReady()
            }
            onEventTaken?(event)
            if exitReason != nil { break }
        }
        return exitReason ?? .endOfInput
    }

    private func handle(loopEvent event: LoopEvent) {
        switch event {
        case .input(let input): handle(input)
        case .inputEnded: exitReason = exitReason ?? .endOfInput
        case .redraw:
            redrawRequested = false
            if exitReason == nil { renderFrame() }
        case .signal(let number): handleSignal(number)
        case .probeTimedOut, .prepared: break
        }
    }

    private func handleSignal(_ number: Int32) {
        switch number {
        case SIGWINCH:
            fitToTerminal()
            redrawAll()
        case SIGTSTP:
            suspend()
        case SIGCONT:
            resume()
        default:
            exitReason = exitReason ?? .signal(number)
        }
    }

    private func fitToTerminal() {
        guard let session, let size = Terminal.size(fileDescriptor: session.outputDescriptor) else { return }
        window.resize(to: size)
        // A font change resizes the cells too.
        capabilities.cellPixelSize = Terminal.cellPixelSize(fileDescriptor: session.outputDescriptor)
    }

    /// Leaves the session and stops the process, as Ctrl-Z does in a shell; when the shell
    /// continues it, enters the session again and redraws.
    private func suspend() {
        guard let session, session.isActive else { return }
        session.leave()
        // Stopped here until SIGCONT. SignalEvents' action is put back afterwards, so that the
        // next SIGTSTP reaches the run loop again.
        JobControl.stop(with: SIGTSTP)
        resume()
    }

    /// Enters the session again after a stop (its settings may have been changed meanwhile) and
    /// redraws at the terminal's size. Continued in the background (`kill -CONT` while the
    /// shell keeps the terminal), it is stopped again in ``TerminalSession/enter()`` until `fg`,
    /// rather than draw over the shell.
    private func resume() {
        guard let session else { return }
        do {
            try session.enter()
        } catch {
            exitReason = exitReason ?? .endOfInput
            return
        }
        fitToTerminal()
        // Before the first frame, the run loop draws it when it is ready.
        if isFirstFrameDrawn { redrawAll() }
    }
}
