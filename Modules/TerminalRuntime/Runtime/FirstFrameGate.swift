import HeadlessUI
import TerminalCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Holds a terminal application's first frame until it is ready, and what the user does
/// meanwhile until it is drawn: a pure value, as `InputDecoder` is, so that its rules are
/// tested without a terminal. ``TerminalApplication/run(firstFrameAfter:)`` hands it each event
/// of its loop until it opens and does what it says.
///
/// The first frame waits for the terminal's answer to the graphics query (or its timeout) and
/// for the app's preparation; then it shows the app as it is, and the input that waited is
/// handled after it, in order. Ctrl-C (when the application quits on it) quits at once, so a
/// preparation that never ends cannot keep the user in a blank screen.
package struct FirstFrameGate {
    /// What the run loop does with an event that came before the first frame.
    package enum Step: Equatable {
        /// The terminal's answer to the graphics query, or its silence taken as a no.
        case answered(KittyGraphicsProbe.Answer)
        /// Quit now: Ctrl-C.
        case quit
        /// Fit the window to the terminal; the first frame is drawn at that size.
        case refit
        /// Forget the redraw asked for: the first frame draws everything.
        case forgetRedraw
        /// Handle it as after the first frame: the end of input, or a signal that ends the run.
        case handle
        /// Nothing now: the event waits for the first frame, or only moved the gate.
        case none
    }

    /// The graphics query still waiting for the terminal's answer, if one was asked.
    package private(set) var probe: KittyGraphicsProbe?
    /// Whether the app's preparation is still running.
    package private(set) var isPreparing: Bool
    /// What the user did before the first frame, in order.
    package private(set) var waiting: [InputEvent] = []
    /// Whether the first frame may be (and has been asked to be) drawn.
    package private(set) var isOpen = false

    /// A gate waiting for `probe`'s answer, if the terminal is asked, and for a preparation.
    package init(probe: KittyGraphicsProbe?, isPreparing: Bool) {
        self.probe = probe
        self.isPreparing = isPreparing
    }

    /// Takes an event of the run loop before the first frame; `quits` says whether it is a key
    /// that quits the application (Ctrl-C, unless the application is told otherwise).
    package mutating func take(_ event: TerminalApplication.LoopEvent, quits: Bool) -> Step {
        switch event {
        case .input(.reply(let reply)) where probe != nil:
            return answer(probe?.receive(reply))
        case .input(.key) where quits:
            return .quit
        case .input(let input):
            waiting.append(input)
            return .none
        case .probeTimedOut:
            return answer(probe?.timedOut())
        case .prepared:
            isPreparing = false
            return .none
        case .redraw:
            return .forgetRedraw
        case .signal(SIGWINCH):
            return .refit
        case .inputEnded, .signal:
            return .handle
        }
    }

    /// Opens the gate when nothing holds the first frame any more and the run is not
    /// `ending`: returns the input that waited, to handle after drawing it; `nil` while it
    /// stays shut (or once it is open).
    package mutating func open(ending: Bool) -> [InputEvent]? {
        guard !isOpen, probe == nil, !isPreparing, !ending else { return nil }
        isOpen = true
        defer { waiting = [] }
        return waiting
    }

    private mutating func answer(_ answer: KittyGraphicsProbe.Answer?) -> Step {
        guard let answer else { return .none }
        probe = nil
        return .answered(answer)
    }
}
