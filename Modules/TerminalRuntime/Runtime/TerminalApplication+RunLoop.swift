import HeadlessUI
import TerminalCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The run loop: the terminal session entered and left, input read on a thread of its own,
/// signals (resizes, Ctrl-Z and `fg`, the ones that end a program) and redraw requests, handled
/// one at a time on the main actor, and the first frame held until the terminal has answered the
/// graphics query and the app's start-up work is done (``FirstFrameGate``). What each event does
/// to the window and the screen is ``TerminalApplication``'s own (``handle(_:)``,
/// ``renderFrame()``), the same without a terminal.
extension TerminalApplication {
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
    func suspend() {
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
