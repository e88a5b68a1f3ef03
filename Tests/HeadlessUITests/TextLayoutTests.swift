import Testing

@testable import HeadlessUI

@Suite("Text layout: truncation and wrapping count terminal cells")
struct TextLayoutTests {
    @Test func truncationCountsCellsNotCharacters() {
        #expect(TextLayout.truncate("할 일 목록", to: 6, mode: .byTruncatingTail) == "할 일…")
        #expect(TextLayout.truncate("할 일 목록", to: 6, mode: .byTruncatingHead) == "… 목록")
        #expect(TextLayout.truncate("abcdefghij", to: 7, mode: .byTruncatingMiddle) == "abc…hij")
        #expect(TextLayout.truncate("abcdefghij", to: 4, mode: .byClipping) == "abcd")
        #expect(TextLayout.truncate("short", to: 10, mode: .byTruncatingTail) == "short")
    }

    @Test func wordWrappingBreaksAtSpacesAndInsideLongWords() {
        #expect(
            TextLayout.lines(of: "the quick brown fox", width: 10, maximumLines: 0) == [
                "the quick", "brown fox",
            ])
        #expect(TextLayout.lines(of: "abcdefghijkl", width: 5, maximumLines: 0) == ["abcde", "fghij", "kl"])
        #expect(TextLayout.lines(of: "한국어 텍스트 줄바꿈", width: 8, maximumLines: 0) == ["한국어", "텍스트", "줄바꿈"])
        #expect(TextLayout.lines(of: "one\n\ntwo", width: 10, maximumLines: 0) == ["one", "", "two"])
    }

    @Test func aLineLimitEndsTheLastLineWithAnEllipsis() {
        #expect(TextLayout.lines(of: "aaa bbb ccc ddd", width: 7, maximumLines: 2) == ["aaa bbb", "ccc ddd"])
        #expect(
            TextLayout.lines(of: "aaa bbb ccc ddd e", width: 7, maximumLines: 2) == ["aaa bbb", "ccc dd…"])
        #expect(
            TextLayout.lines(of: "aaa bbb ccc ddd e", width: 7, maximumLines: 2, truncation: .byClipping) == [
                "aaa bbb", "ccc ddd",
            ])
    }
}
