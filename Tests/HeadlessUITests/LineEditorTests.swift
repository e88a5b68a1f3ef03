import HeadlessUI
import TerminalCore
import Testing

@Suite("LineEditor: a shell's line editing for text fields and prompts")
struct LineEditorTests {
    private func ctrl(_ letter: Character) -> KeyPress { KeyPress(letter, modifiers: .control) }

    private func editor(_ text: String, typing keys: [KeyPress] = []) -> LineEditor {
        var editor = LineEditor()
        for character in text { editor.handle(KeyPress(character)) }
        for key in keys { editor.handle(key) }
        return editor
    }

    @Test func typingInsertsAtTheCursorAndTheArrowsMoveIt() {
        var editor = editor("bu milk", typing: [KeyPress(.home), KeyPress(.right), KeyPress(.right)])
        #expect(editor.cursor == 2)
        editor.handle(KeyPress("y"))
        #expect(editor.text == "buy milk")
        #expect(editor.cursor == 3)
    }

    @Test func ctrlAEKUWAndTheDeleteKeys() {
        var line = editor("buy oat milk")
        line.handle(ctrl("w"))
        #expect(line.text == "buy oat ")
        line.handle(ctrl("a"))
        line.handle(KeyPress(.delete))
        #expect(line.text == "uy oat ")
        line.handle(ctrl("e"))
        line.handle(KeyPress(.backspace))
        #expect(line.text == "uy oat")
        line.handle(KeyPress(.left))
        line.handle(KeyPress(.left))
        line.handle(ctrl("k"))
        #expect(line.text == "uy o")
        line.handle(ctrl("u"))
        #expect(line.text == "")
        #expect(line.cursor == 0)
    }

    @Test func wordMovesWithAltAndCtrlArrows() {
        var line = editor("one two three")
        line.handle(KeyPress("b", modifiers: .alt))
        #expect(line.cursor == 8)
        line.handle(KeyPress(.left, modifiers: .control))
        #expect(line.cursor == 4)
        line.handle(KeyPress("f", modifiers: .alt))
        #expect(line.cursor == 7)
    }

    @Test func enterSubmitsClearsAndKeepsHistoryThatUpAndDownRecall() {
        var line = editor("first")
        let result1 = line.handle(KeyPress(.enter))
        #expect(result1 == .submitted("first"))
        #expect(line.text.isEmpty)
        for character in "second" { line.handle(KeyPress(character)) }
        line.handle(KeyPress(.enter))
        for character in "draft" { line.handle(KeyPress(character)) }
        line.handle(KeyPress(.up))
        #expect(line.text == "second")
        line.handle(KeyPress(.up))
        #expect(line.text == "first")
        line.handle(KeyPress(.up))
        #expect(line.text == "first")
        line.handle(KeyPress(.down))
        line.handle(KeyPress(.down))
        #expect(line.text == "draft")
        #expect(line.history == ["first", "second"])
    }

    @Test func controlCharactersNeverEnterTheText() {
        var line = LineEditor()
        line.insert("foo\u{1B}[31mbar\u{07}\nbaz\tqux")
        #expect(line.text == "foo[31mbar baz qux")
        #expect(line.handle(KeyPress(.character("\u{1B}"))) == .ignored)
        let result2 = line.handle(ctrl("c"))
        #expect(result2 == .ignored)
        #expect(line.handle(KeyPress(.function(5))) == .ignored)
    }

    @Test func tabAsksForCompletionAndOneCandidateCompletesTheWord() {
        var line = editor("fil")
        let result3 = line.handle(KeyPress(.tab))
        #expect(result3 == .completionRequested)
        let result4 = line.complete(with: ["filter"])
        #expect(result4)
        #expect(line.text == "filter ")
        var shared = editor("edit d")
        let result5 = shared.complete(with: ["delete", "done"])
        #expect(!result5)
        #expect(shared.text == "edit d")  // no longer common prefix: nothing to add
        let result6 = shared.complete(with: [])
        #expect(!result6)
        var prefix = editor("ta")
        let result7 = prefix.complete(with: ["table", "tabs"])
        #expect(result7)
        #expect(prefix.text == "tab")
    }

    @Test func aLongLineScrollsSidewaysToKeepTheCursorInView() {
        var line = editor("abcdefghij")
        #expect(line.visibleText(width: 5) == ("ghij", 4))
        line.handle(KeyPress(.home))
        #expect(line.visibleText(width: 5) == ("abcde", 0))
        let wide = editor("할일목록")
        #expect(wide.visibleText(width: 5) == ("목록", 4))
    }
}
