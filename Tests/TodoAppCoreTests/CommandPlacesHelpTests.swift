import Testing

@testable import TodoAppCore

/// The end of the app's help: every screen's typed commands, from the screens' declarations,
/// in two columns or, on a narrow screen, each over its explanation.
@Suite("The help's list of every screen's typed commands")
struct CommandPlacesHelpTests {
    /// The rows under `heading`, up to the next place's heading.
    private func rows(under heading: String, in text: String) -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring(heading)) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.hasPrefix("On ") })
    }

    @Test("wide: the typed forms in a column two spaces in, then what each does")
    func twoColumns() {
        #expect(
            rows(under: "On the Profile tab:", in: CommandPlaces.helpText()) == [
                "  refresh    Fetch another photo",
                "  fav        Keep the photo as a favourite, or drop it",
                "  favs       Browse the favourites (↑/↓, Esc)",
                "  name TEXT  Set your name",
                "  bio TEXT   Set your bio",
            ])
    }

    @Test("narrow: each typed form over its explanation; commands with only keys are left out")
    func narrow() {
        #expect(
            rows(under: "On the Profile tab:", in: CommandPlaces.helpText(narrow: true)) == [
                "  refresh", "      Fetch another photo",
                "  fav", "      Keep the photo as a favourite, or drop it",
                "  favs", "      Browse the favourites (↑/↓, Esc)",
                "  name TEXT", "      Set your name",
                "  bio TEXT", "      Set your bio",
            ])
    }
}
