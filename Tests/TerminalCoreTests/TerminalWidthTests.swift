import Testing

@testable import TerminalCore

@Suite("Terminal widths: East Asian wide characters take two cells, combining marks none")
struct TerminalWidthTests {
    @Test func asciiTakesOneCellEach() {
        #expect("Hello, world".terminalWidth == 12)
    }

    @Test func hangulSyllablesAndIdeographsTakeTwo() {
        #expect("할 일".terminalWidth == 5)
        #expect("漢字".terminalWidth == 4)
        #expect("ｱ".terminalWidth == 1)  // halfwidth katakana
        #expect("Ａ".terminalWidth == 2)  // fullwidth latin
    }

    @Test func conjoiningJamoMakeOneWideSyllable() {
        // ᄒ + ᅡ + ᆫ, decomposed 한
        #expect("\u{1112}\u{1161}\u{11AB}".terminalWidth == 2)
    }

    @Test func combiningMarksTakeNoCell() {
        #expect("e\u{301}".terminalWidth == 1)
        #expect("\u{301}".terminalWidth == 0)
        #expect("a\u{200B}b".terminalWidth == 2)  // zero-width space
    }

    @Test func emojiTakeTwoCells() {
        #expect("🐶".terminalWidth == 2)
        #expect("👨‍👩‍👧".terminalWidth == 2)  // a ZWJ sequence is one glyph
        #expect("🇰🇷".terminalWidth == 2)
        #expect("❤️".terminalWidth == 2)  // text-default heart made emoji by VS16
        #expect("❤".terminalWidth == 1)
    }
}

@Suite("Canvas")
struct CanvasTests {
    private let everywhere = CellRect(x: 0, y: 0, width: 100, height: 100)

    @Test func aWideCharacterTakesItsCellAndTheNext() {
        var canvas = Canvas(width: 4, height: 1)
        canvas.put("한", x: 1, y: 0, style: .plain, clip: everywhere)
        #expect(canvas[1, 0].character == "한")
        #expect(canvas[2, 0].isContinuation)
        #expect(canvas.lines == [" 한"])
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var canvas = Canvas(width: 4, height: 1)
        canvas.put("한", x: 0, y: 0, style: .plain, clip: everywhere)
        canvas.put("x", x: 1, y: 0, style: .plain, clip: everywhere)
        #expect(canvas.lines == [" x"])
        canvas.put("글", x: 2, y: 0, style: .plain, clip: everywhere)
        canvas.put("y", x: 2, y: 0, style: .plain, clip: everywhere)
        #expect(canvas.lines == [" xy"])
    }

    @Test func aWideCharacterThatWouldStickOutOfTheClipIsASpace() {
        var canvas = Canvas(width: 4, height: 1)
        canvas.put("한", x: 2, y: 0, style: .plain, clip: CellRect(x: 0, y: 0, width: 3, height: 1))
        #expect(canvas[2, 0].character == " ")
        #expect(!canvas[3, 0].isContinuation)
    }

    @Test func styledTextWrapsStyledRunsInSGRCodesAndResets() {
        var canvas = Canvas(width: 5, height: 1)
        canvas.put("a", x: 0, y: 0, style: TextStyle(foreground: .red, isBold: true), clip: everywhere)
        canvas.put("b", x: 1, y: 0, style: .plain, clip: everywhere)
        #expect(canvas.text(styled: true) == "\u{1B}[0m\u{1B}[1;31ma\u{1B}[0mb   ")
        #expect(canvas.text() == "ab")
    }
}
