import HeadlessUI
import HeadlessUITesting
import Layout
import Reactor
import TerminalCore
import Testing

@testable import TodoAppCore

/// The table of where each typed command lives holds what the screens declare: each screen on
/// display offers exactly the typed commands its place lists, so the help and the "belongs to"
/// messages can never send someone to the wrong screen.
@MainActor
@Suite("Command places: each screen's typed commands are the ones its place lists")
struct CommandPlacesTests {
    /// The typed commands of the screen on display: the deepest controller's, not its parents'
    /// (the tab bar's `tab`, the shell's `help`), which work everywhere.
    private func typedCommands(on window: Window) -> Set<String> {
        let screen = window.rootViewController?.commandResponders.first
        return Set(screen?.keyCommands.compactMap(\.name) ?? [])
    }

    private func press(_ pilot: TerminalPilot, _ key: KeyPress) async {
        await SentActions.during { pilot.press(key) }.reduced()
        pilot.redraw(label: "after \(key)")
    }

    @Test("the Todo list, the New todo form and the Profile tab each declare what their place lists")
    func screensMatchTheirPlaces() async throws {
        let app = try InMemoryApp(titles: ["buy milk"])
        let (window, _, router) = await app.launch(size: Size(width: 80, height: 24))
        defer { router.interactable.deactivate() }
        let pilot = TerminalPilot(window: window, size: Size(width: 80, height: 24))
        var visited: [String] = []
        func check(_ place: CommandPlaces.Place, sourceLocation: SourceLocation = #_sourceLocation) {
            let declared = typedCommands(on: window)
            #expect(
                !declared.isEmpty, "\(place.screen) declares typed commands", sourceLocation: sourceLocation)
            #expect(
                declared == Set(place.commands.compactMap(\.name)),
                "\(place.screen): declared \(declared.sorted())", sourceLocation: sourceLocation)
            for name in declared {
                #expect(
                    CommandPlaces.place(of: name)?.screen == place.screen,
                    "`\(name)` is declared on \(place.screen)", sourceLocation: sourceLocation)
            }
            visited.append(place.screen)
        }
        check(CommandPlaces.todoList)
        await press(pilot, KeyPress("n"))
        #expect(pilot.screen.contains("New todo"))
        check(CommandPlaces.newTodo)
        await press(pilot, KeyPress(.escape))
        await press(pilot, KeyPress(.tab))
        #expect(pilot.screen.contains("Refresh"))
        check(CommandPlaces.profile)
        #expect(visited == CommandPlaces.all.map(\.screen), "every place is a screen checked here")
    }

    @Test("no typed command belongs to two places, so `belongs to` names one screen")
    func oneScreenPerCommand() {
        let names = CommandPlaces.all.flatMap { $0.commands.compactMap(\.name) }
        #expect(names.count == Set(names).count, "\(names)")
    }
}
