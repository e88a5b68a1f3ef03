import HeadlessUI
import TerminalCore
import TerminalRuntime
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The first frame's rules, without a terminal: what waits for what, and what does not wait.
@Suite("FirstFrameGate: the first frame waits for the terminal's answer and the app, and the keys for it")
struct FirstFrameGateTests {
    let controlC = KeyPress("c", modifiers: .control)
    let supported = TerminalReply.kittyGraphics(id: 31, message: "OK")

    @Test("nothing to wait for: it opens at once, with nothing waiting")
    func opensAtOnce() {
        var gate = FirstFrameGate(probe: nil, isPreparing: false)
        #expect(gate.open(ending: false) == [])
        #expect(gate.isOpen)
        #expect(gate.open(ending: false) == nil, "it opens once")
    }

    @Test("keys typed while the terminal is asked wait, and come out in order once it answers")
    func keysWaitForTheAnswer() {
        var gate = FirstFrameGate(probe: KittyGraphicsProbe(), isPreparing: false)
        #expect(gate.open(ending: false) == nil)
        #expect(gate.take(.input(.key(KeyPress("a"))), quits: false) == .none)
        #expect(gate.take(.input(.paste("bc")), quits: false) == .none)
        #expect(gate.open(ending: false) == nil)
        #expect(gate.take(.input(.reply(supported)), quits: false) == .answered(.supported))
        #expect(gate.open(ending: false) == [.key(KeyPress("a")), .paste("bc")])
        #expect(gate.waiting.isEmpty)
    }

    @Test("a terminal that answers nothing is taken as a no when the query times out")
    func silenceIsANo() {
        var gate = FirstFrameGate(probe: KittyGraphicsProbe(), isPreparing: false)
        guard case .answered(.unsupported) = gate.take(.probeTimedOut, quits: false) else {
            Issue.record("no answer from the timeout")
            return
        }
        #expect(gate.probe == nil)
        #expect(gate.open(ending: false) == [])
    }

    @Test("it waits for the slower of the answer and the preparation")
    func waitsForBoth() {
        var gate = FirstFrameGate(probe: KittyGraphicsProbe(), isPreparing: true)
        _ = gate.take(.input(.reply(supported)), quits: false)
        #expect(gate.open(ending: false) == nil, "the preparation still runs")
        #expect(gate.take(.prepared, quits: false) == .none)
        #expect(gate.open(ending: false) == [])
    }

    @Test("Ctrl-C quits before the first frame; a resize refits; a redraw is left to the frame")
    func whatDoesNotWait() {
        var gate = FirstFrameGate(probe: nil, isPreparing: true)
        #expect(gate.take(.input(.key(controlC)), quits: true) == .quit)
        #expect(gate.take(.signal(SIGWINCH), quits: false) == .refit)
        #expect(gate.take(.redraw, quits: false) == .forgetRedraw)
        #expect(gate.take(.signal(SIGTERM), quits: false) == .handle)
        #expect(gate.take(.inputEnded, quits: false) == .handle)
        #expect(gate.waiting.isEmpty, "none of them waits for the frame")
    }

    @Test("a run that is ending draws no first frame")
    func noFrameWhenEnding() {
        var gate = FirstFrameGate(probe: nil, isPreparing: false)
        #expect(gate.open(ending: true) == nil)
        #expect(!gate.isOpen)
    }
}
