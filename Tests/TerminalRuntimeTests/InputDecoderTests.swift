import HeadlessUI
import TerminalCore
import TerminalRuntime
import Testing

@Suite("InputDecoder: bytes from a terminal in raw mode become keys, pastes and mouse reports")
struct InputDecoderTests {
    private func decode(_ text: String) -> [InputEvent] {
        var decoder = InputDecoder()
        return decoder.feed(Array(text.utf8)) + decoder.flush()
    }

    private func key(_ key: KeyPress.Key, _ modifiers: KeyPress.Modifiers = []) -> InputEvent {
        .key(KeyPress(key, modifiers: modifiers))
    }

    @Test func printableCharactersAndUTF8ArriveAsThemselves() {
        #expect(decode("a1 ") == [key(.character("a")), key(.character("1")), key(.character(" "))])
        #expect(decode("한é🐶") == [key(.character("한")), key(.character("é")), key(.character("🐶"))])
    }

    @Test func controlCharactersAreCtrlLettersExceptTheNamedKeys() {
        #expect(
            decode("\u{01}\u{03}\u{1A}") == [
                key(.character("a"), .control), key(.character("c"), .control),
                key(.character("z"), .control),
            ])
        #expect(decode("\r\t\u{7F}\u{08}") == [key(.enter), key(.tab), key(.backspace), key(.backspace)])
        #expect(decode("\u{00}") == [key(.character(" "), .control)])
    }

    @Test func arrowsHomeEndAndTheirModifiersInBothForms() {
        #expect(
            decode("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [key(.up), key(.down), key(.right), key(.left)])
        #expect(decode("\u{1B}OA\u{1B}OH\u{1B}OF") == [key(.up), key(.home), key(.end)])
        #expect(
            decode("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~") == [key(.home), key(.end), key(.home), key(.end)])
        #expect(decode("\u{1B}[1;5C") == [key(.right, .control)])
        #expect(decode("\u{1B}[1;2A") == [key(.up, .shift)])
        #expect(decode("\u{1B}[1;3D") == [key(.left, .alt)])
        #expect(decode("\u{1B}[Z") == [key(.tab, .shift)])
    }

    @Test func pageKeysDeleteInsertAndFunctionKeys() {
        #expect(
            decode("\u{1B}[5~\u{1B}[6~\u{1B}[3~\u{1B}[2~") == [
                key(.pageUp), key(.pageDown), key(.delete), key(.insert),
            ])
        #expect(decode("\u{1B}OP\u{1B}OS") == [key(.function(1)), key(.function(4))])
        #expect(
            decode("\u{1B}[15~\u{1B}[17~\u{1B}[24~") == [
                key(.function(5)), key(.function(6)), key(.function(12)),
            ])
        #expect(decode("\u{1B}[3;5~") == [key(.delete, .control)])
    }

    @Test func altIsAnEscBeforeTheKey() {
        #expect(decode("\u{1B}x\u{1B}\u{7F}") == [key(.character("x"), .alt), key(.backspace, .alt)])
        #expect(decode("\u{1B}\u{01}") == [key(.character("a"), [.alt, .control])])
    }

    @Test func aLoneEscWaitsForTheTimeoutThenIsTheEscKey() {
        var decoder = InputDecoder()
        let result1 = decoder.feed([0x1B])
        #expect(result1.isEmpty)
        #expect(decoder.hasPendingInput)
        let result2 = decoder.flush()
        #expect(result2 == [key(.escape)])
        #expect(!decoder.hasPendingInput)
        // Two Escs typed in a row.
        let result3 = decoder.feed([0x1B, 0x1B])
        #expect(result3 == [key(.escape)])
        let result4 = decoder.flush()
        #expect(result4 == [key(.escape)])
    }

    @Test func aSequenceSplitAcrossReadsAtEveryByteDecodesOnce() {
        let sequences = ["\u{1B}[1;5C", "\u{1B}[<0;12;5M", "한", "🐶", "\u{1B}OP", "\u{1B}[200~hi\u{1B}[201~"]
        for sequence in sequences {
            var decoder = InputDecoder()
            var events: [InputEvent] = []
            for byte in sequence.utf8 { events += decoder.feed([byte]) }
            #expect(events == decode(sequence), "\(sequence.debugDescription)")
            #expect(events.count == 1)
            #expect(!decoder.hasPendingInput)
        }
    }

    @Test func anUnfinishedSequenceAtTheTimeoutIsTakenAsTyped() {
        var decoder = InputDecoder()
        let result5 = decoder.feed(Array("\u{1B}[".utf8))
        #expect(result5.isEmpty)
        let result6 = decoder.flush()
        #expect(result6 == [key(.character("["), .alt)])
        let result7 = decoder.feed([0xED, 0x95])
        #expect(result7.isEmpty)  // the first two bytes of 한
        let result8 = decoder.flush()
        #expect(result8.isEmpty)
        let result9 = decoder.feed(Array("a".utf8))
        #expect(result9 == [key(.character("a"))])
    }

    @Test func bracketedPasteIsOneEventWithoutControlsOrEscapeSequences() {
        #expect(decode("\u{1B}[200~buy milk\u{1B}[201~") == [.paste("buy milk")])
        #expect(decode("\u{1B}[200~a\r\nb\rc\u{1B}[201~") == [.paste("a\nb\nc")])
        // What a hostile clipboard holds: a colour change, a bell, a cursor move, a C1 control.
        #expect(decode("\u{1B}[200~foo\u{1B}[31mbar\u{07}\u{1B}[2J\u{9B}\u{1B}[201~") == [.paste("foobar")])
        // Keys inside a paste are text, not commands.
        #expect(decode("\u{1B}[200~q\u{03}\u{1B}[201~x") == [.paste("q"), key(.character("x"))])
    }

    @Test func aPasteWaitsForItsEndMarkerEvenAcrossTheTimeout() {
        var decoder = InputDecoder()
        let result10 = decoder.feed(Array("\u{1B}[200~line one\n".utf8))
        #expect(result10.isEmpty)
        let result11 = decoder.flush()
        #expect(result11.isEmpty)
        let result12 = decoder.feed(Array("line two\u{1B}[20".utf8))
        #expect(result12.isEmpty)
        let result13 = decoder.feed(Array("1~".utf8))
        #expect(result13 == [.paste("line one\nline two")])
    }

    @Test func sgrMouseReportsPressesReleasesDragsAndTheWheel() {
        #expect(decode("\u{1B}[<0;10;3M") == [.mouse(MouseEvent(.press(.left), x: 9, y: 2))])
        #expect(decode("\u{1B}[<0;10;3m") == [.mouse(MouseEvent(.release(.left), x: 9, y: 2))])
        #expect(decode("\u{1B}[<2;1;1M") == [.mouse(MouseEvent(.press(.right), x: 0, y: 0))])
        #expect(decode("\u{1B}[<32;5;5M") == [.mouse(MouseEvent(.drag(.left), x: 4, y: 4))])
        #expect(
            decode("\u{1B}[<64;5;6M\u{1B}[<65;5;6M") == [
                .mouse(MouseEvent(.scrollUp, x: 4, y: 5)), .mouse(MouseEvent(.scrollDown, x: 4, y: 5)),
            ])
        #expect(
            decode("\u{1B}[<16;2;2M") == [.mouse(MouseEvent(.press(.left), x: 1, y: 1, modifiers: .control))])
        #expect(decode("\u{1B}[<35;2;2M").isEmpty)  // motion without a button
    }

    @Test func unknownSequencesAndTerminalRepliesNeverBecomeText() {
        // The replies the runtime asks for are replies, never keys or text.
        #expect(decode("\u{1B}[?1;2c") == [.reply(.deviceAttributes([1, 2]))])
        #expect(decode("\u{1B}_Gi=31;OK\u{1B}\\") == [.reply(.kittyGraphics(id: 31, message: "OK"))])
        #expect(decode("\u{1B}]11;rgb:0000/0000/0000\u{07}").isEmpty)  // OSC colour reply
        #expect(decode("\u{1B}_Xsomething else\u{1B}\\").isEmpty)  // another APC string
        #expect(decode("\u{1B}[I\u{1B}[O").isEmpty)  // focus reports
        #expect(decode("a\u{1B}[99;99Xb") == [key(.character("a")), key(.character("b"))])
    }

    @Test func invalidUTF8IsDroppedAndDecodingGoesOn() {
        var decoder = InputDecoder()
        let result14 = decoder.feed([0xFF, 0x61, 0xC3, 0x28, 0x62])
        #expect(result14 == [key(.character("a")), key(.character("(")), key(.character("b"))])
    }

    @Test func keyPressesDescribeThemselvesInASCII() {
        #expect(KeyPress("a", modifiers: .control).description == "Ctrl-A")
        #expect(KeyPress(.tab, modifiers: .shift).description == "Shift-Tab")
        #expect(KeyPress(.pageDown).description == "PgDn")
        #expect(KeyPress("x", modifiers: .alt).description == "Alt-x")
        #expect(KeyPress(" ").description == "Space")
    }
}
